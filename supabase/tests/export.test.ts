/**
 * The export is `npm run waitlist -- export` (cli/tests/commands.test.ts, cli/tests/csv.test.ts),
 * which leaves out the do-not-email list and alone opens sealed addresses; the old view of every
 * signup is gone, and so is private.csv_cell(): the spreadsheet escape is the command's.
 */
import { describe, expect, it } from 'vitest';
import { useDatabase } from './use-database';

const db = useDatabase();

describe('the export', () => {
  it('is the one export path: the view of every signup is gone', async () => {
    const { rows } = await db.owner.query(`select to_regclass('private.waiting_list_export') as view`);
    expect(rows).toEqual([{ view: null }]);
    const csvCell = await db.owner.query(`select to_regproc('private.csv_cell') as cell`);
    expect(csvCell.rows).toEqual([{ cell: null }]);
  });
});

/**
 * private.csv_cell(), which `npm run waitlist -- export --for spreadsheet` puts around every
 * address (the command itself: cli/tests/commands.test.ts). The export is that command, which
 * leaves out the do-not-email list; the old view of every signup is gone.
 */
import { describe, expect, it } from 'vitest';
import { useDatabase } from './use-database';

const db = useDatabase();

describe('the export', () => {
  it('is the one export path: the view of every signup is gone', async () => {
    const { rows } = await db.owner.query(`select to_regclass('private.waiting_list_export') as view`);
    expect(rows).toEqual([{ view: null }]);
  });

  it('escapes every cell a spreadsheet would evaluate: = + - @ tab and carriage return at the start', async () => {
    const cells = ['=1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'x=1', ' =1', 'ada@example.com', ''];
    const { rows } = await db.owner.query(
      'select private.csv_cell(c) as cell from unnest($1::text[]) with ordinality u(c, n) order by n',
      [cells],
    );
    expect(rows.map((row) => row.cell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'x=1',
      ' =1',
      'ada@example.com',
      '',
    ]);
  });
});

import { Command } from 'commander';
import { withDatabase } from './connection.ts';
import { json, out } from './terminal.ts';

export function countCommand(): Command {
  return new Command('count')
    .description('Print the number of addresses on the list (and, with --json, how many may be emailed).')
    .option('--json', 'print {"addresses", "mayEmail"} as JSON')
    .action(async (options: { json?: boolean }) => {
      const { rows } = await withDatabase((db) =>
        db.query<{ addresses: number; may_email: number }>(
          `select (select count(*)::int from public.waiting_list) as addresses,
                  (select count(*)::int from private.mailable_signups) as may_email`,
        ),
      );
      const [{ addresses, may_email: mayEmail }] = rows;
      if (options.json) json({ addresses, mayEmail });
      else out(String(addresses));
    });
}

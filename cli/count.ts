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
          `select count(*)::int as addresses,
                  count(*) filter (where private.may_email(email, created_at))::int as may_email
           from public.waiting_list`,
        ),
      );
      const [{ addresses, may_email: mayEmail }] = rows;
      if (options.json) json({ addresses, mayEmail });
      else out(String(addresses));
    });
}

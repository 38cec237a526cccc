import { Command } from 'commander';
import { withDatabase } from './connect/database.ts';
import { countSignups } from './list/signups.ts';
import { json, out } from './terminal.ts';

export function countCommand(): Command {
  return new Command('count')
    .description('Print the number of addresses on the list (and, with --json, how many may be emailed).')
    .option('--json', 'print {"addresses", "mayEmail"} as JSON')
    .action(async (options: { json?: boolean }) => {
      const counted = await withDatabase(countSignups);
      if (options.json) json(counted);
      else out(String(counted.addresses));
    });
}

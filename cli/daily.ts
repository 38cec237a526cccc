import { Command } from 'commander';
import { withDatabase } from './connect/database.ts';
import { signupsPerDay } from './list/signups.ts';
import { json } from './terminal.ts';

export function dailyCommand(): Command {
  return new Command('daily')
    .description('Signups per UTC day from the first signup to today, empty days too: CSV day,signups (CRLF).')
    .option('--json', 'print [{"day", "signups"}] as JSON')
    .action(async (options: { json?: boolean }) => {
      const days = await withDatabase(signupsPerDay);
      if (options.json) json(days);
      else process.stdout.write(['day,signups', ...days.map((d) => `${d.day},${d.signups}`)].join('\r\n') + '\r\n');
    });
}

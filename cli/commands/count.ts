import { Command } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { sealingFaults, sealStatus } from '../seal/status.ts';
import { countSignups, sealPending, signupsPerDay } from '../list/signups.ts';
import { json, out, say } from '../terminal/terminal.ts';

export function countCommand(): Command {
  return new Command('count')
    .description('Print the number of addresses (--json: and how many may be emailed); sealing faults on stderr.')
    .option('--daily', 'signups per UTC day from the first signup to today, empty days too: CSV day,signups (CRLF)')
    .option('--json', 'print {"addresses", "mayEmail", "sealing"} (--daily: [{"day", "signups"}]) as JSON')
    .action(async (options: { daily?: boolean; json?: boolean }) => {
      if (options.daily) {
        const days = await withDatabase(signupsPerDay);
        if (options.json) json(days);
        else process.stdout.write(['day,signups', ...days.map((d) => `${d.day},${d.signups}`)].join('\r\n') + '\r\n');
        return;
      }
      const { counted, sealing } = await withDatabase(async (db) => {
        await sealPending(db); // rows restored with the triggers off
        return { counted: await countSignups(db), sealing: await sealStatus(db) };
      });
      for (const fault of sealingFaults(sealing)) say(`Warning: ${fault}`);
      if (options.json) json({ ...counted, sealing });
      else out(String(counted.addresses));
    });
}

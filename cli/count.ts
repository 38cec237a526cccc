import { Command } from 'commander';
import { withDatabase } from './connect/database.ts';
import { sealingFaults, sealStatus } from './health/sealing.ts';
import { countSignups, sealPending } from './list/signups.ts';
import { json, out, say } from './terminal.ts';

export function countCommand(): Command {
  return new Command('count')
    .description('Print the number of addresses (--json: and how many may be emailed); sealing faults on stderr.')
    .option('--json', 'print {"addresses", "mayEmail", "sealing"} as JSON')
    .action(async (options: { json?: boolean }) => {
      const { counted, sealing } = await withDatabase(async (db) => {
        await sealPending(db); // rows restored with the triggers off
        return { counted: await countSignups(db), sealing: await sealStatus(db) };
      });
      for (const fault of sealingFaults(sealing)) say(`Warning: ${fault}`);
      if (options.json) json({ ...counted, sealing });
      else out(String(counted.addresses));
    });
}

import { Command } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { erase, signupsOf, type Found } from '../list/do-not-email.ts';
import { keySignups } from '../list/signups.ts';
import { typedAddress } from '../list/suppression-file.ts';
import { confirm, json, out, say, UsageError } from '../terminal/terminal.ts';

/** The signup as stored, or, once sealed (no key needed here), as the owner typed it. */
const shown = (row: Found, typed: string) => row.email ?? `${typed} (sealed: as you typed it)`;

/** What the database kept and the owner still holds elsewhere: printed after every erasure. */
const BY_HAND = [
  'Still yours to clean by hand: the copy in your email tool (its contacts or audience), any CSV',
  'exported before now, and the daily backups of the database until they age out (docs/operations.md).',
];

export function eraseCommand(): Command {
  return new Command('erase')
    .description('Erase an address, in any letter case or Unicode form; its keyed hash stays on the do-not-email list.')
    .argument('<address>', 'the address to erase (one starting with - goes after --)')
    .option('-y, --yes', 'do not ask (for scripts)')
    .option('--json', 'print what was removed as JSON')
    .action(async (given: string, options: { yes?: boolean; json?: boolean }) => {
      const address = typedAddress(given);
      if (!address) throw new UsageError(`Not an address: ${JSON.stringify(given)}`);
      await withDatabase(async (db) => {
        await keySignups(db);
        const found = await signupsOf(db, address);
        if (found.length) for (const row of found) say(`Found ${shown(row, address)}, signed up ${row.signed_up_at}.`);
        else say(`${address} is not on the list: it will only be added to the do-not-email list.`);
        await confirm(
          `Erase ${found.length ? found.map((row) => shown(row, address)).join(', ') : address} for good?`,
          options.yes,
        );
        const removedRows = await erase(db, address);
        if (options.json) json({ removed: found, doNotEmail: true, removedRows });
        else {
          for (const row of found) out(`Removed ${shown(row, address)} (signed up ${row.signed_up_at}) from the list.`);
          out('Kept: a keyed hash on the do-not-email list; no export or send will reach this address.');
        }
        for (const line of BY_HAND) say(line);
      });
    });
}

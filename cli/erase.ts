import { Command } from 'commander';
import { withDatabase } from './connection.ts';
import { confirm, json, out, say } from './terminal.ts';

type Found = { email: string; signed_up_at: string };

/** The signups of $1 in any letter case and Unicode form (private.email_key), by their indexed keyed hash. */
const SAME_ADDRESS = 'select id from private.waiting_list_keys where address_hash = private.address_hash($1)';

/** What the database kept and the owner still holds elsewhere: printed after every erasure. */
const BY_HAND = [
  'Still yours to clean by hand: the copy in your email tool (its contacts or audience), any CSV',
  'exported before now, and the daily backups of the database until they age out (docs/operations.md).',
];

export function eraseCommand(): Command {
  return new Command('erase')
    .description(
      'Erase one address (a data-subject erasure request): in any letter case or Unicode form, from everywhere ' +
        'it is stored. Only a keyed hash stays, on the do-not-email list, so no later send or export reaches it.',
    )
    .argument('<address>', 'the address to erase (one starting with - goes after --)')
    .option('-y, --yes', 'do not ask (for scripts)')
    .option('--json', 'print what was removed as JSON')
    .action(async (address: string, options: { yes?: boolean; json?: boolean }) => {
      await withDatabase(async (db) => {
        const { rows: found } = await db.query<Found>(
          `select email, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_at
           from public.waiting_list where id in (${SAME_ADDRESS})`,
          [address],
        );
        if (found.length) for (const row of found) say(`Found ${row.email}, signed up ${row.signed_up_at}.`);
        else say(`${address} is not on the list: it will only be added to the do-not-email list.`);
        await confirm(`Erase ${found.length ? found.map((r) => r.email).join(', ') : address} for good?`, options.yes);

        await db.query('begin');
        try {
          // The key row (private.waiting_list_keys) goes with it: on delete cascade. The journal
          // keeps its keyed hash only, its signup_id set to null.
          const removed = await db.query(`delete from public.waiting_list where id in (${SAME_ADDRESS})`, [address]);
          await db.query(
            `insert into private.do_not_email (address_hash, reason) values (private.address_hash($1), 'erased')
             on conflict (address_hash) do update set reason = 'erased', added_at = now()`,
            [address],
          );
          await db.query('commit');
          if (options.json) json({ removed: found, doNotEmail: true, removedRows: removed.rowCount });
          else {
            for (const row of found) out(`Removed ${row.email} (signed up ${row.signed_up_at}) from the list.`);
            out('Kept: a keyed hash on the do-not-email list; no export or send will reach this address.');
          }
          for (const line of BY_HAND) say(line);
        } catch (error) {
          await db.query('rollback');
          throw error;
        }
      });
    });
}

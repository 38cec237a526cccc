/**
 * What follows sealing (`keys init`), and `keys compact`, which does it again (safely, as often as needed): every
 * address sealed, no old row version or column sample keeps one; what is left, said.
 */
import type pg from 'pg';
import { say } from '../terminal/terminal.ts';
import { FORGET_BY_HAND, forgetAddressSamples } from './statistics.ts';

/** The next step when the clean-up did not finish. */
export const COMPACT_LATER = 'npm run waitlist -- keys compact';
const LIST_TABLES = 'public.waiting_list, private.signup_addresses';

/**
 * The list's tables rewritten into new files (signups wait, 5 s at most for the lock) and column
 * samples gone, as far as this role may; true if nothing is left to do by hand.
 */
export async function compact(db: pg.Client) {
  await db.query(`set lock_timeout = '5s'`);
  const compacted = await db
    .query(`vacuum (full, analyze) ${LIST_TABLES}`)
    .then(() => true)
    .catch((error: { code?: string }) => (error.code === '55P03' ? false : Promise.reject(error)))
    .finally(() => db.query('reset lock_timeout'));
  if (!compacted) {
    say(`The list was busy: its old row versions are still on disk. At a quiet moment, run
  ${COMPACT_LATER}
or, in the SQL editor:
  vacuum (full, analyze) ${LIST_TABLES};`);
  }
  const { resampled, rewritten, databaseOwner } = await forgetAddressSamples(db);
  if (!resampled || !rewritten) {
    say("PostgreSQL's column statistics (pg_statistic) may still hold addresses sampled before the list was sealed.");
    say(
      rewritten
        ? `Once every row is sealed (waitlist count), run ${COMPACT_LATER} again, or in the SQL editor run`
        : `Rewriting them takes the database's owner (${databaseOwner}) or a superuser; as ${databaseOwner}, ` +
            'once every row is sealed (waitlist count), run',
    );
    say(`  ${FORGET_BY_HAND[0]}`);
    say('then, on its own (VACUUM cannot run in a transaction, so not pasted together with the above):');
    say(`  ${FORGET_BY_HAND[1]}`);
  }
  say('The WAL written before now still holds what the list held, until the server writes over its files, and');
  say("archives and backups of it keep it while they are kept (supabase/security.md, 'What keys init leaves').");
  return compacted && resampled && rewritten;
}

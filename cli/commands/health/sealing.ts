/**
 * Whether the list is sealed at rest and its hour keys retired in time (private.seal_status(),
 * supabase/security.md).
 */
import type { Queryable } from '../../connect/queries.ts';
import { ok, problem, setup, skipped, type Finding } from '../../findings/finding.ts';
import { sealingFaults, sealStatus } from '../../seal/status.ts';

/** The tables an hour key is held in clear in must be UNLOGGED: never in the WAL. */
const LOGGED = `select array(
    select t from unnest(array['private.hour_key_0', 'private.hour_key_1', 'private.hour_key_2']) t
    where coalesce((select relpersistence from pg_class where oid = to_regclass(t)), 'p') <> 'u'
  ) as tables`;

export async function checkSealing(db: Queryable): Promise<Finding> {
  const { tables } = (await db.query<{ tables: string[] }>(LOGGED)).rows[0];
  const faults = sealingFaults(await sealStatus(db));
  if (tables.length) {
    faults.push(
      `${tables.join(', ')} missing or not UNLOGGED: the hour keys held in clear would be written to the WAL.`,
    );
  }
  if (!faults.length) {
    return ok('sealing', "Every address sealed; the database holds only the current hour's key in clear, UNLOGGED.");
  }
  return problem(
    'sealing',
    faults.join(' '),
    faults[0].startsWith('Not sealed')
      ? 'npm run waitlist -- keys init (docs/operations.md, "Sealing the list").'
      : 'npm run waitlist -- count seals what waits; for the hour keys, see the waitlist-seal-hour-keys finding; ' +
          'push the migrations again for a logged table (supabase/README.md).',
  );
}

/** Days after which a holder proves again that the copy they keep opens the list. */
const RECHECK_DAYS = 90;

/** Whether each holder's stored key was proved to open the list (keys check) in the last 90 days. */
export async function checkKeyCopies(db: Queryable): Promise<Finding> {
  const { rows } = await db.query<{ id: string; days: number | null }>(
    `select id::text, extract(day from now() - checked_at)::int as days from private.key_holders order by id`,
  );
  const stale = rows.filter(({ days }) => days === null || days >= RECHECK_DAYS);
  const ago = ({ id, days }: (typeof rows)[0]) => `holder ${id} ${days === null ? 'never' : `${days} days ago`}`;
  if (!rows.length) return skipped('key copies', 'Not sealed yet: no owner key to check.');
  if (!stale.length) {
    return ok('key copies', `Every holder's stored key (${rows.length}) opened the list within ${RECHECK_DAYS} days.`);
  }
  return setup(
    'key copies',
    `Stored owner keys last proved to open the list: ${stale.map(ago).join(', ')}. ` +
      'A copy that no longer opens it goes unnoticed until the list is lost.',
    'Each holder, with the copy they keep: npm run waitlist -- keys check (docs/operations.md, ' +
      '"Sealing the list"); keys holders lists them.',
  );
}

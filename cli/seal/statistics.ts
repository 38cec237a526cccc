/**
 * What ANALYZE sampled of the list before it was sealed stays in pg_statistic's file as a dead row:
 * once every address is sealed, the column is sampled afresh (NULLs), then pg_statistic rewritten.
 */
import type pg from 'pg';
import { inTransaction } from '../connect/queries.ts';

/** The same by hand, in two steps: VACUUM cannot run in a transaction, as statements sent at once do. */
export const FORGET_BY_HAND = [
  'begin; alter table public.waiting_list alter column email set statistics 1; ' +
    'analyze public.waiting_list (email); alter table public.waiting_list alter column email set statistics 0; ' +
    'commit;',
  'vacuum full pg_catalog.pg_statistic;',
] as const;

/** Samples the address column afresh; false (and nothing sampled) while a row still holds an address. */
const resample = (db: pg.Client) =>
  inTransaction(db, async () => {
    // Signups wait a moment: no address arrives between the check and the sample.
    await db.query('lock table public.waiting_list in share mode');
    const { rows } = await db.query('select exists (select from public.waiting_list where email is not null) as plain');
    if (rows[0].plain) return false;
    await db.query(FORGET_BY_HAND[0].replace(/^begin; |commit;$/g, '')); // ANALYZE skips a column whose target is 0
    return true;
  });

const STATISTICS_FILES = `
  select pg_relation_filenode(c.oid) || '/' || pg_relation_filenode(c.reltoastrelid) as files,
         pg_get_userbyid(d.datdba) as owner
  from pg_class c, pg_database d
  where c.oid = 'pg_catalog.pg_statistic'::regclass and d.datname = current_database()`;

/**
 * After sealing: no sample of an address left in pg_statistic's files, as far as this role may
 * (a role that may not gets a warning from VACUUM: new files tell) and the list lets (5 s for a lock).
 */
export async function forgetAddressSamples(db: pg.Client) {
  const lockTimeout = (error: { code?: string }) => (error.code === '55P03' ? false : Promise.reject(error));
  await db.query(`set lock_timeout = '5s'`);
  try {
    const resampled = await resample(db).catch(lockTimeout);
    const before = (await db.query(STATISTICS_FILES)).rows[0];
    const vacuumed = await db.query('vacuum full pg_catalog.pg_statistic').catch(lockTimeout);
    const after = (await db.query(STATISTICS_FILES)).rows[0];
    return { resampled, rewritten: vacuumed !== false && after.files !== before.files, databaseOwner: after.owner };
  } finally {
    await db.query('reset lock_timeout');
  }
}

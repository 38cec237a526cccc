/**
 * What ANALYZE sampled of the list before it was sealed. PostgreSQL keeps each column's sample
 * (most common values, histogram bounds) in the catalog pg_statistic, and a replaced or deleted
 * sample stays in that catalog's file as a dead row version, in freed space too (VACUUM does not
 * overwrite it). So once every address is sealed: the address column is sampled afresh (it holds
 * only NULLs), then pg_statistic is rewritten into new files (VACUUM FULL), which the database's
 * owner may do, not only a superuser (on Supabase, `postgres` owns the database). The migrations
 * keep the address column and every key column out of ANALYZE (statistics target 0) from then on.
 */
import type pg from 'pg';
import { inTransaction } from '../list/transaction.ts';

export type Forgotten = {
  /** The address column's sample is of sealed rows only. */
  resampled: boolean;
  /** pg_statistic and its TOAST table are in new files: no old sample is left in them. */
  rewritten: boolean;
  /** Who owns the database: the role that may rewrite pg_statistic (besides a superuser). */
  databaseOwner: string;
};

/**
 * The SQL that does the same by hand (for the command's message when it could not), in two steps
 * run one after the other: VACUUM cannot run inside a transaction block, and several statements
 * sent at once (as the SQL editor sends them) run in one.
 */
export const FORGET_BY_HAND = [
  'begin; alter table public.waiting_list alter column email set statistics 1; ' +
    'analyze public.waiting_list (email); alter table public.waiting_list alter column email set statistics 0; ' +
    'commit;',
  'vacuum full pg_catalog.pg_statistic;',
] as const;

const isLockTimeout = (error: unknown) => (error as { code?: string }).code === '55P03';

/** Samples the address column afresh; false (and nothing sampled) while a row still holds an address. */
async function resample(db: pg.Client): Promise<boolean> {
  return inTransaction(db, async () => {
    // Signups wait a moment: no address arrives between the check and the sample.
    await db.query('lock table public.waiting_list in share mode');
    const { rows } = await db.query<{ plain: boolean }>(
      'select exists (select from public.waiting_list where email is not null) as plain',
    );
    if (rows[0].plain) return false;
    // ANALYZE skips a column whose target is 0 and leaves its old sample in place.
    await db.query('alter table public.waiting_list alter column email set statistics 1');
    await db.query('analyze public.waiting_list (email)');
    await db.query('alter table public.waiting_list alter column email set statistics 0');
    return true;
  });
}

const STATISTICS_FILES = `
  select pg_relation_filenode(c.oid) || '/' || pg_relation_filenode(c.reltoastrelid) as files,
         pg_get_userbyid(d.datdba) as owner
  from pg_class c, pg_database d
  where c.oid = 'pg_catalog.pg_statistic'::regclass and d.datname = current_database()`;

/** VACUUM FULL of pg_statistic; a role that may not gets a warning from VACUUM, and new files tell. */
async function rewrite(db: pg.Client): Promise<{ rewritten: boolean; databaseOwner: string }> {
  const before = (await db.query<{ files: string; owner: string }>(STATISTICS_FILES)).rows[0];
  await db.query('vacuum full pg_catalog.pg_statistic');
  const after = (await db.query<{ files: string; owner: string }>(STATISTICS_FILES)).rows[0];
  return { rewritten: after.files !== before.files, databaseOwner: after.owner };
}

/** After sealing: no sample of an address left in pg_statistic's files, as far as this role may. */
export async function forgetAddressSamples(db: pg.Client): Promise<Forgotten> {
  await db.query(`set lock_timeout = '5s'`);
  try {
    const resampled = await resample(db).catch((error: unknown) => {
      if (isLockTimeout(error)) return false;
      throw error;
    });
    const files = await rewrite(db).catch(async (error: unknown) => {
      if (!isLockTimeout(error)) throw error;
      const { rows } = await db.query<{ owner: string }>(STATISTICS_FILES);
      return { rewritten: false, databaseOwner: rows[0].owner };
    });
    return { resampled, ...files };
  } finally {
    await db.query('reset lock_timeout');
  }
}

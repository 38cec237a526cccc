/** The abuse guard's settings: its limits (one row per scope), its allowed origins (none: every origin), its jobs. */
import type { Queryable } from './list/signups.ts';

export type Limit = { scope: string; per_10_minutes: number; per_day: number; applies_to: string };
export type Job = { jobname: string; schedule: string };

export const limits = async (db: Queryable) =>
  (await db.query<Limit>('select * from private.signup_limits order by scope')).rows;

export async function setLimit(db: Queryable, { scope, per_10_minutes, per_day }: Limit): Promise<void> {
  await db.query('update private.signup_limits set per_10_minutes = $2, per_day = $3 where scope = $1', [
    scope,
    per_10_minutes,
    per_day,
  ]);
}

export const allowedOrigins = async (db: Queryable) =>
  (await db.query<{ origin: string }>('select origin from private.allowed_origins order by 1')).rows.map(
    (r) => r.origin,
  );

export const addOrigin = async (db: Queryable, origin: string) =>
  (await db.query('insert into private.allowed_origins values ($1) on conflict do nothing', [origin])).rowCount === 1;

export const removeOrigin = async (db: Queryable, origin: string) =>
  (await db.query('delete from private.allowed_origins where origin = $1', [origin])).rowCount === 1;

export const UPKEEP = 'waitlist-signup-guard-upkeep';

/** The pg_cron jobs: none where pg_cron is not enabled, which `db push` does not show (its WARNING reaches only the server log). */
export async function upkeepJobs(db: Queryable): Promise<Job[]> {
  const { rows } = await db.query(`select to_regclass('cron.job') is not null as cron`);
  if (!rows[0].cron) return [];
  return (await db.query<Job>(`select jobname, schedule from cron.job where jobname like 'waitlist-%' order by 1`))
    .rows;
}

/** What the owner reads when the upkeep job is missing, with the statement that schedules it. */
export const NO_UPKEEP = [
  `Warning: the guard's upkeep job ${UPKEEP} is not scheduled: expired counters are never deleted, and`,
  'duplicates are refused (429) on a day without a signup. Enable pg_cron if it is not (Dashboard → Database →',
  `Extensions), then: select cron.schedule('${UPKEEP}', '* * * * *',`,
  "'select private.forget_expired_signups(), private.prepare_signup_secrets()');",
];

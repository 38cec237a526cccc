import type { Queryable } from '../list/signups.ts';

export type Job = { jobname: string; schedule: string };

export const UPKEEP = 'waitlist-signup-guard-upkeep';

/** The guard's pg_cron jobs: none where pg_cron is not enabled, which `db push` does not show
 * (the migration's WARNING reaches only the server log). */
export async function upkeepJobs(db: Queryable): Promise<Job[]> {
  const { rows } = await db.query<{ cron: boolean }>(`select to_regclass('cron.job') is not null as cron`);
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

/** The guard's pg_cron jobs: scheduled, active, and each one's last run recent and successful. */
import type pg from 'pg';
import { duration, ok, problem, skipped, type Finding } from '../../findings/finding.ts';

const GUARD = 'supabase/migrations/20261128100100_signup_guard.sql';
const SEALING = 'supabase/migrations/20261128100200_sealing.sql';

/** The jobs the migrations schedule, and how stale a last run may be. */
const JOBS = [
  {
    name: 'waitlist-signup-guard-upkeep',
    scheduledBy: GUARD,
    does: "deletes the guard's expired counters and secrets, and prepares today's and tomorrow's secrets",
    runs: 'every minute',
    staleAfterSeconds: 5 * 60,
    mustHaveRun: true, // the others may not have run yet on a young project (a day, an hour, a minute)
  },
  {
    name: 'waitlist-purge-job-history',
    scheduledBy: GUARD,
    does: "deletes the waitlist jobs' run history older than a day",
    runs: 'daily at 03:30 UTC',
    staleAfterSeconds: 25 * 3600,
  },
  {
    name: 'waitlist-seal-pending',
    scheduledBy: SEALING,
    does: 'seals signups restored with the triggers off',
    runs: 'hourly at minute 5',
    staleAfterSeconds: 2 * 3600,
  },
  {
    name: 'waitlist-seal-hour-keys',
    scheduledBy: SEALING,
    does: "empties the clear-key tables of past hours, so the database holds only the current hour's key",
    runs: 'every minute',
    staleAfterSeconds: 15 * 60,
  },
];

type Job = (typeof JOBS)[number];
type Row = {
  jobid: string;
  jobname: string;
  active: boolean;
  status: string | null;
  return_message: string | null;
  age_seconds: number | null;
};

/** A job's finding, from its row among `rows` (none: not scheduled). */
function judge(job: Job, rows: Row[]): Finding {
  const row = rows.find(({ jobname }) => jobname === job.name);
  const age = row?.age_seconds ?? null;
  const ago = duration(age);
  const runs =
    'Look at its runs: select status, return_message, start_time from cron.job_run_details ' +
    `where jobid = ${row?.jobid} order by start_time desc limit 5;`;
  const faults: [boolean, string, string][] = [
    [!row, 'Not scheduled.', `Run its cron.schedule(...) line from ${job.scheduledBy} in the SQL editor.`],
    [!row?.active, 'Stopped (cron.job.active is false).', `select cron.alter_job(${row?.jobid}, active := true);`],
    [row?.status === 'failed', `Its last run, ${ago} ago, failed: ${row?.return_message}.`, runs],
    [age === null && job.mustHaveRun === true, 'No run recorded: pg_cron is not running it.', runs],
    [age !== null && age > job.staleAfterSeconds, `Its last run was ${ago} ago; it should run ${job.runs}.`, runs],
  ];
  const [, says, fix] = faults.find(([applies]) => applies) ?? [];
  if (says) return problem(job.name, `${says} It ${job.does}, ${job.runs}.`, fix!);
  if (age === null) return ok(job.name, `Active; no run recorded yet (it runs ${job.runs}).`);
  return ok(job.name, `Last run ${ago} ago, succeeded.`);
}

export async function checkCron(db: pg.Client): Promise<Finding[]> {
  const cron = await db.query(`select from pg_extension where extname = 'pg_cron'`);
  if (!cron.rowCount) {
    return [
      problem(
        'pg_cron',
        "Not enabled: nothing deletes the guard's expired counters (personal data) or prepares its daily secrets, " +
          "and past hours' keys stay in clear.",
        'Enable pg_cron (Dashboard → Database → Extensions), then run the cron.schedule(...) lines of ' +
          `${GUARD} and ${SEALING}.`,
      ),
    ];
  }
  const { rows: currentRole } = await db.query<{ sees_every_job: boolean }>(
    `select rolsuper or rolbypassrls or rolname = 'postgres' as sees_every_job
     from pg_roles where rolname = current_user`,
  );
  if (!currentRole[0]?.sees_every_job) {
    // pg_cron's row-level security shows each role only the jobs it scheduled.
    return [
      skipped(
        'pg_cron',
        "Not checked: pg_cron shows a role only its own jobs, and the guard's are postgres's; " +
          "run the check with the owner's DATABASE_URL for them.",
      ),
    ];
  }
  const { rows } = await db.query<Row>(
    `select j.jobid, j.jobname, j.active, r.status, r.return_message,
            extract(epoch from now() - r.end_time)::int as age_seconds
     from cron.job j
     left join lateral (select d.status, d.return_message, d.end_time from cron.job_run_details d
                        where d.jobid = j.jobid and d.status in ('succeeded', 'failed')
                        order by d.end_time desc limit 1) r on true
     where j.jobname = any($1)`,
    [JOBS.map((job) => job.name)],
  );
  return JOBS.map((job) => judge(job, rows));
}

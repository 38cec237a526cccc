/**
 * Client networks are personal data: no counter outlives its slot by more than one run of the
 * pg_cron job (every minute), even when no further signup arrives.
 */
import { describe, expect, it } from 'vitest';
import { SUPERUSER } from '../harness/cluster';
import { createEmptyDatabase } from '../harness/database';
import { migrate } from '../harness/migrations';
import { useDatabase, withClient } from './use-database';
import { sharedDatabase } from './shared-server';

const db = useDatabase({ pgCron: true });

describe('retention of the abuse guard counters', () => {
  it('schedules private.forget_expired_signups() every minute with pg_cron, whose scheduler runs', async () => {
    if (!sharedDatabase().cron) {
      throw new Error('pg_cron is not installed: apt-get install -y postgresql-<major>-cron (CI installs it).');
    }
    const { rows: jobs } = await db.owner.query(
      `select jobname, schedule, command, database, username, active from cron.job
       where jobname = 'waitlist-signup-guard-upkeep'`,
    );
    expect(jobs).toEqual([
      {
        jobname: 'waitlist-signup-guard-upkeep',
        schedule: '* * * * *',
        command: 'select private.forget_expired_signups(), private.prepare_signup_secrets()',
        database: 'waitlist',
        username: 'postgres',
        active: true,
      },
    ]);
    const launcher = await withClient(sharedDatabase(), SUPERUSER, (superuser) =>
      superuser.query(`select datname from pg_stat_activity where backend_type = 'pg_cron launcher'`),
    );
    expect(launcher.rows).toEqual([{ datname: 'waitlist' }]);
  });

  it("the job's command deletes every counter and secret whose slot is over, and nothing else", async () => {
    const { rows: jobs } = await db.owner.query(
      `select command from cron.job where jobname = 'waitlist-signup-guard-upkeep'`,
    );
    await db.owner.query(
      `insert into private.signup_counts (network, slot_start, slot_end, signups) values
         ('\\x01', now() - interval '10 minutes 1 second', now() - interval '1 second', 5),
         ('\\x02', now() - interval '1 day 1 second', now() - interval '1 second', 7),
         ('\\x03', now() - interval '5 minutes', now() + interval '5 minutes', 1),
         ('\\x04', now() - interval '1 hour', now() + interval '23 hours', 1)`,
    );
    await db.owner.query(
      `insert into private.signup_secrets (day_start, day_end, secret) values
         (now() - interval '1 day 1 second', now() - interval '1 second', '\\x05'),
         (now() - interval '1 hour', now() + interval '23 hours', '\\x06')`,
    );
    await db.owner.query(jobs[0].command); // as the job runs it: same command, same role
    const left = await db.owner.query(
      `select encode(network, 'hex') as n from private.signup_counts
       where network in ('\\x01', '\\x02', '\\x03', '\\x04') order by 1`,
    );
    expect(left.rows.map((row) => row.n)).toEqual(['03', '04']);
    const secrets = await db.owner.query(
      `select encode(secret, 'hex') as s from private.signup_secrets where secret in ('\\x05', '\\x06')`,
    );
    expect(secrets.rows).toEqual([{ s: '06' }]);
    const expired = await db.owner.query(
      `select (select count(*) from private.signup_counts where slot_end <= now())::int
            + (select count(*) from private.signup_secrets where day_end <= now())::int as n`,
    );
    expect(expired.rows[0].n).toBe(0);
    await db.owner.query(`delete from private.signup_counts where network in ('\\x03', '\\x04')`);
    await db.owner.query(`delete from private.signup_secrets where secret = '\\x06'`);
  });

  it("purges our jobs' run history older than a day, every day, and leaves other jobs' alone", async () => {
    const { rows: jobs } = await db.owner.query(
      `select schedule, command from cron.job where jobname = 'waitlist-purge-job-history'`,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].schedule).toBe('30 3 * * *');
    const ours = (await db.owner.query(`select jobid from cron.job where jobname = 'waitlist-signup-guard-upkeep'`))
      .rows[0].jobid;
    await db.owner.query(
      `insert into cron.job_run_details (jobid, runid, status, start_time, end_time) values
         ($1, 900001, 'succeeded', now() - interval '2 days', now() - interval '2 days'),
         ($1, 900002, 'succeeded', now() - interval '1 hour', now() - interval '1 hour'),
         (424242, 900003, 'succeeded', now() - interval '2 days', now() - interval '2 days')`,
      [ours],
    );
    await db.owner.query(jobs[0].command);
    const { rows } = await db.owner.query(
      `select runid from cron.job_run_details where runid between 900001 and 900003 order by runid`,
    );
    expect(rows.map((row) => Number(row.runid))).toEqual([900002, 900003]);
    const { rows: old } = await db.owner.query(
      `select count(*)::int as n from cron.job_run_details d join cron.job j using (jobid)
       where j.jobname like 'waitlist-%' and d.end_time < now() - interval '1 day'`,
    );
    expect(old[0].n).toBe(0);
    await db.owner.query(`delete from cron.job_run_details where runid between 900001 and 900003`);
  });

  it('applies every migration where pg_cron cannot be enabled, warning that nothing schedules cleanup', async () => {
    // pg_cron only runs in cron.database_name ('waitlist'): elsewhere the migration's fallback.
    const other = await createEmptyDatabase(sharedDatabase(), 'waitlist_without_cron');
    await migrate(other);
    const { rows } = await withClient(other, 'postgres', (owner) =>
      owner.query(
        `select (select count(*) from pg_extension where extname = 'pg_cron')::int as cron,
                to_regprocedure('private.forget_expired_signups()') is not null as cleanup`,
      ),
    );
    expect(rows).toEqual([{ cron: 0, cleanup: true }]);
  });
});

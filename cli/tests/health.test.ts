/**
 * `waitlist health` against the stand-ins of the site and the data API, in front of the shared
 * test database (the one where pg_cron runs the guard's jobs). Every run leaves the list's row
 * count as it was (health-stand-ins.ts).
 */
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { countsOf } from '../../supabase/tests/guard';
import { SECURITY_HEADERS } from '../health/site';
import { findingsOf, health, siteHeaders, useStandIns } from './health-stand-ins';

const stand = useStandIns(() => inject('database'));
const UPKEEP = 'waitlist-signup-guard-upkeep';
const PURGE = 'waitlist-purge-job-history';

/** A port where nothing listens (a server opened, then closed). */
async function closedPort(): Promise<number> {
  const server = createTcpServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP server that accepts connections and never says a word. */
async function silentServer() {
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

beforeEach(async () => {
  await stand.owner.query('insert into private.allowed_origins values ($1)', [stand.site.url]);
  // Both jobs ran a moment ago and succeeded (pg_cron runs the upkeep at the next minute; the purge at 03:30).
  await stand.owner.query(
    `insert into cron.job_run_details (jobid, runid, username, database, command, status, return_message, start_time, end_time)
     select jobid, 910000 + jobid, username, database, command, 'succeeded', '1 row', now() - interval '1 second', now()
     from cron.job where jobname in ($1, $2)`,
    [UPKEEP, PURGE],
  );
});

afterEach(async () => {
  await stand.owner.query('delete from private.allowed_origins');
  await stand.owner.query(`update cron.job set active = true where jobname like 'waitlist-%'`);
  await stand.owner.query('delete from cron.job_run_details where runid between 910000 and 919999');
  await stand.owner.query(`delete from private.signup_counts where network = '\\xdead'`);
  await stand.owner.query(`update private.signup_limits set per_day = 1000 where scope = 'ipv4'`);
  stand.api.behaviour = 'database';
  stand.site.builtFor = stand.api.url;
});

describe('waitlist health', () => {
  it('says healthy (exit 0) when a visitor could join, adding no row and spending no quota', async () => {
    const run = await health(stand);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\nHealthy: a visitor can join the list right now \(checked in \d+\.\d\d s\)\.\n$/);
    const checks = findingsOf(await health(stand, ['--json']));
    expect(checks.map((f) => [f.check, f.outcome])).toEqual(
      ['site', 'CSP', 'data API', 'migrations', 'origins', 'limits', UPKEEP, PURGE, 'guard data'].map((c) => [c, 'ok']),
    );
    expect(checks.find((f) => f.check === 'data API')?.says).toContain('400 23514');
    // The probe's counts were rolled back with it: the owner's network spent nothing.
    expect(await countsOf(stand.owner, '127.0.0.1/32')).toEqual({ tenMinutes: 0, day: 0 });
  });

  it('checks every security header the build sends', () => {
    expect(siteHeaders(stand.site).map(([name]) => name.toLowerCase())).toEqual(SECURITY_HEADERS);
  });

  it('runs the public half alone without DATABASE_URL', async () => {
    const run = await health(stand, [], { DATABASE_URL: '' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('skipped database: DATABASE_URL is not set');
  });

  it('names the data API that cannot be reached (exit 1)', async () => {
    const run = await health(stand, [], { VITE_SUPABASE_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /PROBLEM +data API: http:\/\/127\.0\.0\.1:\d+\/rest\/v1\/waiting_list could not be reached \(connect ECONNREFUSED/,
    );
    expect(run.stdout).toContain(
      'Fix: Check VITE_SUPABASE_URL. Open the project in the Supabase dashboard: if it says paused',
    );
  });

  it('names a data API answering 503 as paused or down (exit 1)', async () => {
    stand.api.behaviour = 'unavailable';
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM data API: Answered 503 "Service Unavailable": the project is paused, restarting or down.',
    );
  });

  it('gives up on a data API that takes the request and never answers, within the bound (exit 1)', async () => {
    stand.api.behaviour = 'silent';
    const run = await health(stand, ['--timeout', '2']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('/rest/v1/waiting_list did not answer within 2 s.');
    expect(run.ms).toBeGreaterThanOrEqual(2000);
    expect(run.ms).toBeLessThan(2000 + 8000); // the bound, plus node's start on a busy machine
  });

  it('gives up on a database that takes the connection and never answers, within the bound (exit 2)', async () => {
    const silent = await silentServer();
    try {
      const run = await health(stand, ['--timeout', '2'], {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${silent.port}/waitlist`,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('SETUP   database: Could not connect with DATABASE_URL: no answer within 2 s.');
      expect(run.ms).toBeLessThan(2000 + 8000);
    } finally {
      silent.close();
    }
  });

  it("names origins when the guard refuses the site's own origin (exit 1): the guard ran before the address check", async () => {
    await stand.owner.query(`update private.allowed_origins set origin = 'https://old-domain.example'`);
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `PROBLEM origins: The guard refused a signup from the site's own origin, ${stand.site.url} (403 PT403 "Signups are accepted from this site's own pages only."): private.allowed_origins does not list it`,
    );
    expect(run.stdout).toContain(
      `PROBLEM origins: private.allowed_origins lists https://old-domain.example, not the site's ${stand.site.url}`,
    );
    expect(run.stdout).toContain(
      `Fix: psql "$DATABASE_URL" -c "insert into private.allowed_origins values ('${stand.site.url}')"`,
    );
  });

  it('names origins when none is set, which lets any website sign its visitors up (exit 1)', async () => {
    await stand.owner.query('delete from private.allowed_origins');
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM origins: private.allowed_origins is empty: any website may make its visitors sign up.',
    );
  });

  it('names limits when a limit refuses every visitor (exit 1): the quota check ran before the address check', async () => {
    await stand.owner.query(`update private.signup_limits set per_day = 0 where scope = 'ipv4'`);
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('PROBLEM limits: The guard refused the probe as over a signup limit (429 PT429');
    expect(run.stdout).toContain('PROBLEM limits: In private.signup_limits, ipv4 admit 0 signups');
  });

  it('names the key the data API refuses (exit 1)', async () => {
    const run = await health(stand, [], { VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_rotated-away' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('PROBLEM key: The data API refused the publishable key (401 "Invalid API key").');
  });

  it('names the CSP of a site built for another project (exit 1)', async () => {
    stand.site.builtFor = 'https://another-project.supabase.co';
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `PROBLEM CSP: The deployed page may only call 'self' https://another-project.supabase.co (connect-src), not ${stand.api.url}`,
    );
  });

  it('names a stopped pg_cron job (exit 1)', async () => {
    await stand.owner.query('update cron.job set active = false where jobname = $1', [UPKEEP]);
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`PROBLEM ${UPKEEP}: Stopped \\(cron.job.active is false\\)\\. It deletes the guard's`),
    );
    expect(run.stdout).toMatch(/Fix: select cron\.alter_job\(\d+, active := true\);/);
  });

  it("names a pg_cron job whose last run failed, with pg_cron's message (exit 1)", async () => {
    await stand.owner.query(
      `insert into cron.job_run_details (jobid, runid, username, database, command, status, return_message, start_time, end_time)
       select jobid, 915000 + jobid, username, database, command, 'failed', 'ERROR:  permission denied for table job_run_details', now(), now()
       from cron.job where jobname = $1`,
      [PURGE],
    );
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `PROBLEM ${PURGE}: Its last run, \\d+ s ago, failed: ERROR:  permission denied for table job_run_details\\.`,
      ),
    );
  });

  it("names the guard's personal data kept past its slot (exit 1)", async () => {
    // How it happens: the upkeep job stops, and a counter's slot ends. (Stopped first, so it cannot delete the row.)
    await stand.owner.query('update cron.job set active = false where jobname = $1', [UPKEEP]);
    await stand.owner.query(
      `insert into private.signup_counts values ('\\xdead', now() - interval '3 hours', now() - interval '2 hours 50 minutes', 1)`,
    );
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM guard data: 1 counter in private.signup_counts outlived their slot (the oldest ended 3 h ago)',
    );
  });
});

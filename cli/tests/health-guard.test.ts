/**
 * `waitlist health`, the database's half: what the owner's connection finds behind the data API
 * (origins, limits, the pg_cron jobs, the guard's personal data), on the shared test database,
 * where pg_cron runs the guard's jobs. Every run leaves the list's row count as it was.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkedIn, health, PURGE, UPKEEP, useHealthyProject } from './health-stand-ins';

const stand = useHealthyProject();
afterEach(async () => {
  await stand.owner.query(`delete from private.signup_counts where network = '\\xdead'`);
  await stand.owner.query(`update private.signup_limits set per_day = 1000 where scope = 'ipv4'`);
});

/** A TCP server that accepts connections and never says a word. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('waitlist health, the database half', () => {
  it("names origins when the guard, run before the address check, refuses the site's own origin (exit 1)", async () => {
    await stand.owner.query(`update private.allowed_origins set origin = 'https://old-domain.example'`);
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `PROBLEM origins: The guard refused a signup from the site's own origin, ${stand.site.url} (403 PT403 ` +
        `"Signups are accepted from this site's own pages only."): private.allowed_origins does not list it`,
    );
    expect(run.stdout.match(/PROBLEM origins/g)).toHaveLength(1); // named once, by the probe that met it
    expect(run.stdout).toContain(`Fix: npm run waitlist -- origins add ${stand.site.url}`);
  });

  it('names origins when none is set, which lets any website sign its visitors up (exit 1)', async () => {
    await stand.owner.query('delete from private.allowed_origins');
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM origins: private.allowed_origins is empty: any website may make its visitors sign up.',
    );
  });

  it('names limits when a limit, checked before the address, refuses every visitor (exit 1)', async () => {
    await stand.owner.query(`update private.signup_limits set per_day = 0 where scope = 'ipv4'`);
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('PROBLEM limits: The guard refused the probe as over a signup limit (429 PT429');
    expect(run.stdout).toContain('PROBLEM limits: In private.signup_limits, ipv4 admit 0 signups');
  });

  it('gives up on a database that takes the connection and never answers, within the bound (exit 2)', async () => {
    const silent = await silentServer();
    try {
      const run = await health(stand, ['--timeout', '2'], {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${silent.port}/waitlist`,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('SETUP   database: Could not connect with DATABASE_URL: no answer within 2 s.');
      expect(checkedIn(run)).toBeGreaterThanOrEqual(2);
      expect(checkedIn(run)).toBeLessThan(3);
    } finally {
      silent.close();
    }
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
      `insert into cron.job_run_details
         (jobid, runid, username, database, command, status, return_message, start_time, end_time)
       select jobid, 915000 + jobid, username, database, command, 'failed',
              'ERROR:  permission denied for table job_run_details', now(), now()
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
    // How it happens: the upkeep job stops, and a counter's slot ends. (Stopped first, so it cannot
    // delete the row.)
    await stand.owner.query('update cron.job set active = false where jobname = $1', [UPKEEP]);
    await stand.owner.query(
      `insert into private.signup_counts
       values ('\\xdead', now() - interval '3 hours', now() - interval '2 hours 50 minutes', 1)`,
    );
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM guard data: 1 counter in private.signup_counts outlived its slot (the oldest ended 3 h ago)',
    );
  });
});

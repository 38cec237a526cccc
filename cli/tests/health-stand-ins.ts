/**
 * What `waitlist health` talks to, on this machine: the site (a page with the build's real
 * security headers, vite/security-headers.ts) and the data API (supabase/harness/postgrest-server.ts)
 * in front of a test database. `run` is the command as the owner runs it, and asserts that it
 * left the list as it found it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { connect, ownerUrl, type ConnectionInfo } from '../../supabase/harness/database';
import { startPostgrest, type PostgrestServer } from '../../supabase/harness/postgrest-server';
import { sharedDatabase } from '../../supabase/tests/shared-server';
import { securityHeaders } from '../../vite/security-headers';
import { countRows } from './own-database';
import { waitlist, type Result } from './run-cli';

export const KEY = 'sb_publishable_health-test-key';

export type Site = {
  url: string;
  /** The Supabase URL the deployed build was made with. */
  builtFor: string;
  /** Headers served instead of the build's, by name (a host that weakened them). */
  changed: Record<string, string>;
};

/** The build's headers for a page built for `site.builtFor` (no inline elements: the hashes do not matter here). */
export const siteHeaders = (site: Site) =>
  securityHeaders({ supabase: site.builtFor, site: site.url }, { styles: [], scripts: [] }, 'this-host');

const servedHeaders = (site: Site) =>
  siteHeaders(site).map(([name, value]): [string, string] => [name, site.changed[name] ?? value]);

async function startSite(): Promise<Site & { close(): Promise<void> }> {
  const http = createServer((request, response) => {
    response.writeHead(request.url === '/' ? 200 : 404, ['content-type', 'text/html', ...servedHeaders(site).flat()]);
    response.end('<!doctype html><title>Coming soon</title>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const site = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    builtFor: '',
    changed: {},
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
  return site;
}

export type StandIns = { owner: Client; api: PostgrestServer; site: Site; env: Record<string, string> };

/**
 * The stand-ins for one test file, in front of the database `database()` names (known once the
 * file's setup ran).
 */
export function useStandIns(database: () => ConnectionInfo): StandIns {
  const stand = {} as StandIns;
  let apiClient: Client | undefined;
  let closeSite = async () => {};
  beforeAll(async () => {
    const info = database();
    stand.owner = await connect(info, 'postgres');
    apiClient = await connect(info, 'authenticator');
    stand.api = await startPostgrest(apiClient, KEY);
    const site = await startSite();
    closeSite = site.close;
    stand.site = site;
    site.builtFor = stand.api.url;
    stand.env = {
      VITE_SITE_URL: site.url,
      VITE_SUPABASE_URL: stand.api.url,
      VITE_SUPABASE_PUBLISHABLE_KEY: KEY,
      DATABASE_URL: ownerUrl(info),
    };
  }, 120_000);
  afterAll(async () => {
    await stand.api?.close();
    await closeSite();
    await apiClient?.end();
    await stand.owner?.end();
  });
  return stand;
}

const listed = (owner: Client) => countRows(owner, 'public.waiting_list');

/**
 * `npm run waitlist -- health …` with the stand-ins' values (and `env` over them); the list's row
 * count must not move.
 */
export async function health(stand: StandIns, args: string[] = [], env: Record<string, string> = {}) {
  const before = await listed(stand.owner);
  const result = await waitlist(['health', ...args], { ...stand.env, ...env });
  expect(await listed(stand.owner), 'rows on the list after the check').toBe(before);
  return result;
}

/** The seconds the command took by its own clock, from its verdict line ("… (checked in 2.01 s)."). */
export function checkedIn(run: Result) {
  const seconds = /\(checked in (\d+\.\d+) s\)\.\n$/.exec(run.stdout)?.[1];
  if (!seconds) throw new Error(`No verdict line in: ${run.stdout}`);
  return Number(seconds);
}

export type Finding = { check: string; outcome: 'ok' | 'skipped' | 'problem' | 'setup'; says: string; fix?: string };

/** The findings of a --json run. */
export const findingsOf = (run: Result) => (JSON.parse(run.stdout) as { findings: Finding[] }).findings;

export const UPKEEP = 'waitlist-signup-guard-upkeep';
export const PURGE = 'waitlist-purge-job-history';

/**
 * The stand-ins in front of the shared test database, where pg_cron runs the guard's jobs, and
 * before each test that database as a healthy project has it: the site's origin allowed, every job
 * run a moment ago, whatever runs the files before left (a file that stops the jobs can leave a run
 * pg_cron marks 'job canceled'); after it, back to what the other test files expect.
 */
export function useHealthyProject() {
  const stand = useStandIns(() => sharedDatabase());
  beforeEach(async () => {
    await stand.owner.query('insert into private.allowed_origins values ($1)', [stand.site.url]);
    await stand.owner.query(
      `insert into cron.job_run_details
         (jobid, runid, username, database, command, status, return_message, start_time, end_time)
       select jobid, 910000 + jobid, username, database, command, 'succeeded', '1 row',
              now() - interval '1 second', now()
       from cron.job where jobname like 'waitlist-%'`,
    );
  });
  afterEach(async () => {
    await stand.owner.query('delete from private.allowed_origins');
    await stand.owner.query(`update cron.job set active = true where jobname like 'waitlist-%'`);
    await stand.owner.query('delete from cron.job_run_details where runid between 910000 and 919999');
    stand.api.behaviour = 'database';
    stand.site.builtFor = stand.api.url;
    stand.site.changed = {};
  });
  return stand;
}

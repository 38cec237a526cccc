/**
 * `waitlist health` on the visitor's path: the site and the data API (stand-ins, health-stand-ins.ts)
 * in front of the shared test database, where pg_cron runs the guard's jobs. Every run leaves the
 * list's row count as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsOf } from '../../supabase/tests/guard';
import { cspWeaknesses, headerWeaknesses } from '../commands/health/header-values';
import { SECURITY_HEADERS } from '../commands/health/site';
import { checkedIn, findingsOf, health, PURGE, siteHeaders, UPKEEP, useHealthyProject } from './health-stand-ins';
import { startCli } from './run-cli';
import { makeCertificates } from './tls';

const stand = useHealthyProject();

/** A port where nothing listens (a server opened, then closed). */
async function closedPort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('waitlist health, the public half', () => {
  it('says healthy (exit 0) when a visitor could join, adding no row and spending no quota', async () => {
    const run = await health(stand);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\nHealthy: a visitor can join the list right now \(checked in \d+\.\d\d s\)\.\n$/);
    const checks = findingsOf(await health(stand, ['--json']));
    expect(checks.filter((f) => f.check !== 'project settings').map((f) => [f.check, f.outcome])).toEqual(
      [
        ...['site', 'CSP', 'data API', 'public read', 'migrations', 'origins', 'limits', UPKEEP, PURGE],
        ...[
          'waitlist-seal-pending',
          'waitlist-seal-hour-keys',
          'guard data',
          'sealing',
          'key copies',
          'signup',
          'unsubscribe role',
          'logs',
          'exposure',
        ],
      ].map((c) => [c, 'ok']),
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
    const port = await closedPort();
    const run = await health(stand, [], { VITE_SUPABASE_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `PROBLEM data API: http://127.0.0.1:${port}/rest/v1/waiting_list could not be reached (connect ECONNREFUSED`,
    );
    expect(run.stdout).toContain(
      'Fix: Check VITE_SUPABASE_URL. Open the project in the Supabase dashboard: if it says paused',
    );
  });

  it('gives up on a data API that takes the request and never answers, within the bound (exit 1)', async () => {
    stand.api.behaviour = 'silent';
    const run = await health(stand, ['--timeout', '2']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('/rest/v1/waiting_list did not answer within 2 s.');
    // The command's own clock, node's start left out (seconds on a busy machine).
    expect(checkedIn(run)).toBeGreaterThanOrEqual(2);
    expect(checkedIn(run)).toBeLessThan(3);
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
      "PROBLEM CSP: The deployed page may only call 'self' https://another-project.supabase.co (connect-src), " +
        `not ${stand.api.url}`,
    );
  });

  it("names a CSP and a header weaker than the build's on the deployed site (exit 1)", async () => {
    stand.site.changed = { 'Content-Security-Policy': 'default-src *', 'X-Frame-Options': 'ALLOWALL' };
    const run = await health(stand);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("PROBLEM CSP: The deployed policy is weaker than the build's: default-src allows *;");
    expect(run.stdout).toContain(
      `PROBLEM site: ${stand.site.url} answers 200 X-Frame-Options "ALLOWALL" lets other sites frame the page.`,
    );
  });

  /** The build's policy for the stand-in site, as the build writes it. */
  const buildPolicy = () => siteHeaders(stand.site).find(([name]) => name === 'Content-Security-Policy')![1];
  /** What health finds weaker in `policy` than the build's. */
  const weaker = (policy: string) => cspWeaknesses(policy, [stand.site.url, stand.api.url]).join('; ');

  it.each([
    [
      'unsafe-inline scripts',
      () => buildPolicy().replace("script-src 'self'", "script-src 'self' 'unsafe-inline' 'unsafe-eval'"),
      "script-src allows 'unsafe-inline' 'unsafe-eval'",
    ],
    [
      'a page any site may frame',
      () => buildPolicy().replace("frame-ancestors 'none'", 'frame-ancestors https:'),
      "frame-ancestors allows https:; frame-ancestors is https:, not 'none'",
    ],
    [
      'scripts from a CDN, or any a fixed nonce trusts',
      () =>
        buildPolicy().replace(
          "script-src 'self'",
          "script-src 'self' https://cdn.example 'nonce-fixed' 'strict-dynamic'",
        ),
      "script-src allows https://cdn.example 'nonce-fixed' 'strict-dynamic'",
    ],
    [
      'no base-uri',
      () => buildPolicy().replace("base-uri 'self'; ", ''),
      'there is no base-uri, so it allows anything',
    ],
    [
      'calls to a third origin',
      () => buildPolicy().replace('connect-src ', 'connect-src https://collector.example '),
      'connect-src also allows https://collector.example',
    ],
  ])("names a CSP weaker than the build's: %s", (_, policy, named) => {
    expect(weaker(policy())).toContain(named);
  });

  it.each([
    [
      'Strict-Transport-Security',
      'max-age=0',
      'Strict-Transport-Security "max-age=0" keeps HTTPS for less than a year',
    ],
    ['Referrer-Policy', 'unsafe-url', 'Referrer-Policy "unsafe-url" is weaker than strict-origin-when-cross-origin'],
    ['X-Content-Type-Options', 'sniff', 'X-Content-Type-Options "sniff" is not nosniff'],
    ['Cross-Origin-Opener-Policy', 'unsafe-none', 'Cross-Origin-Opener-Policy "unsafe-none" is not same-origin'],
  ])('names a weaker %s: %s', (name, value, named) => {
    expect(headerWeaknesses(new Headers({ [name]: value }))).toEqual([named]);
  });

  it("accepts the build's values repeated or in another case, as a host may join them", () => {
    expect(weaker(buildPolicy().replace("frame-ancestors 'none'", "frame-ancestors 'NONE'"))).toBe('');
    const joined = new Headers({
      'X-Content-Type-Options': 'nosniff, nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin, made-up-policy',
      'X-Frame-Options': 'DENY, deny',
    });
    expect(headerWeaknesses(joined)).toEqual([]);
  });

  it('verifies certificates, NODE_TLS_REJECT_UNAUTHORIZED=0 in the shell or .env.local aside (exit 1)', async () => {
    const { key, cert } = makeCertificates(); // signed by a CA nobody trusts
    const server = createHttpsServer({ key, cert }, (_, response) => response.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const folder = mkdtempSync(join(tmpdir(), 'health-tls-'));
    writeFileSync(join(folder, '.env.local'), 'NODE_TLS_REJECT_UNAUTHORIZED=0\n');
    try {
      const site = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { ...stand.env, VITE_SITE_URL: site, NODE_TLS_REJECT_UNAUTHORIZED: '0' };
      const run = await startCli(['health'], env, [], folder).done;
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(new RegExp(`PROBLEM +site: ${site} could not be reached \\(.*certificate`));
    } finally {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('is the command the scheduled workflow runs, public values from repository variables', () => {
    const workflow = readFileSync(new URL('../../.github/workflows/health.yml', import.meta.url), 'utf8');
    expect(workflow).toMatch(/\n {8}run: npm run waitlist -- health\n/);
    for (const name of ['VITE_SITE_URL', 'VITE_SUPABASE_URL', 'VITE_SUPABASE_PUBLISHABLE_KEY']) {
      expect(workflow).toContain(`${name}: \${{ vars.${name} }}`);
    }
    // The database's side when the repository has a DATABASE_URL secret (a role that may read only
    // the catalog and the guard's settings: docs/operations.md, "A role for the daily check").
    expect(workflow).toContain('DATABASE_URL: ${{ secrets.DATABASE_URL }}');
    expect(workflow.match(/secrets\./g)).toHaveLength(1);
    // run-cli.ts starts cli/main.js with node and the script's flags, which is what `npm run waitlist` runs.
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts;
    expect(scripts.waitlist).toMatch(/^node (--[\w-]+=\d+ )*cli\/main\.js$/);
  });
});

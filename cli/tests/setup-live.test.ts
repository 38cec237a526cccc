/**
 * `waitlist setup` and `npm run deploy` end to end, as an owner runs them: the real pinned Supabase CLI
 * against the Management API stand-in (management-api.ts, through --profile), the real pinned wrangler
 * and one real production build against the Cloudflare stand-in (cloudflare-api.ts, which also serves
 * the uploaded site), health against the data API stand-in, and a throwaway PostgreSQL of its own that
 * looks like a new Supabase project, reached over TCP with a password (SCRAM), logging every statement.
 * Only stand-ins: Supabase and Cloudflare themselves were not reached.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeToken, readToken, unsubscribeKey } from '../../contracts/unsubscribe-token';
import { importSpecifiers, isRelative } from '../../scripts/import-specifiers';
import { SUPERUSER, startCluster, type Cluster } from '../../supabase/harness/cluster';
import { connect, createSupabaseDatabase, type ConnectionInfo } from '../../supabase/harness/database';
import { startPostgrest, type PostgrestServer } from '../../supabase/harness/postgrest-server';
import { startCloudflareApi, type CloudflareApi } from './cloudflare-api';
import { PUBLISHABLE_KEY, REF, startManagementApi, TOKEN } from './management-api';
import { MIGRATIONS } from '../database/migrations';
import { ROOT } from '../connect/tools';
import { startCli, TEST_PASSPHRASE } from './run-cli';
import { onTerminal } from './terminal';

const PASSWORD = 'the-owner-database-password';
const CF_TOKEN = `cf-token-${crypto.randomUUID()}`;
const UNRELATED = '# mine\nSMTP_URL=smtps://user:pass@smtp.example:465\n';
const TAKEN = 'https://coming-soon-4ab.pages.dev'; // Cloudflare's answer: coming-soon is another account's

let cluster: Cluster;
let info: ConnectionInfo;
let api: Awaited<ReturnType<typeof startManagementApi>>;
let cloudflare: CloudflareApi;
let postgrest: PostgrestServer;
let apiClient: pg.Client;
let folder: string;
let env: Record<string, string>;
let first: Record<string, string>; // .env.local after the first run

beforeAll(async () => {
  cluster = await startCluster({ tcp: true, settings: ['log_statement=all'] });
  info = await createSupabaseDatabase(cluster);
  const superuser = await connect(info, SUPERUSER);
  await superuser.query(`alter role postgres password '${PASSWORD}'`);
  writeFileSync(join(cluster.dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n');
  await superuser.query('select pg_reload_conf()').finally(() => superuser.end());
  [api, cloudflare] = await Promise.all([startManagementApi(), startCloudflareApi(CF_TOKEN, ['coming-soon'])]);
  apiClient = await connect(info, 'authenticator');
  postgrest = await startPostgrest(apiClient, PUBLISHABLE_KEY);
  folder = mkdtempSync(join(tmpdir(), 'waitlist-setup-test-'));
  writeFileSync(join(folder, '.env.local'), UNRELATED);
  env = {
    DATABASE_URL: `postgresql://postgres:${PASSWORD}@127.0.0.1:${cluster.port}/${info.database}?sslmode=disable`,
    SUPABASE_API_URL: api.url,
    SUPABASE_PROJECT_URL: postgrest.url,
    CLOUDFLARE_API_BASE_URL: cloudflare.url,
    WAITLIST_OWNER_KEY_PASSPHRASE: '',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all([api?.close(), cloudflare?.close(), postgrest?.close()]);
  await apiClient?.end();
  await cluster?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const envLocal = (dir = folder) => parseEnv(readFileSync(join(dir, '.env.local'), 'utf8')) as Record<string, string>;
const changes = () => api.calls.filter((call) => call.method !== 'GET');
const statuses = (output: string) =>
  [...output.matchAll(/^(done|changed|failed|to do|unknown) +\d+\. /gm)].map(([, status]) => status);
const secretsOf = (values: Record<string, string>) => [
  TOKEN,
  CF_TOKEN,
  PASSWORD,
  TEST_PASSPHRASE,
  values.UNSUBSCRIBE_SECRET,
  new URL(values.UNSUBSCRIBE_DB_URL).password,
  new URL(values.HEALTH_DATABASE_URL).password,
];

const FUNCTION_ENTRY = 'supabase/functions/unsubscribe/index.ts';

/** The files `entry` imports, directly or not, itself included (paths from the checkout's root). */
function importedFiles(entry: string, seen = new Set<string>()) {
  seen.add(entry);
  for (const specifier of importSpecifiers(readFileSync(join(ROOT, entry), 'utf8')).filter(isRelative)) {
    const file = relative(ROOT, resolve(ROOT, dirname(entry), specifier));
    if (!seen.has(file)) importedFiles(file, seen);
  }
  return [...seen];
}

async function query(url: string, sql: string) {
  const { username, password, port, pathname } = new URL(url);
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: username,
    password,
    database: pathname.slice(1),
  });
  await client.connect();
  return client.query(sql).finally(() => client.end());
}

/** What setup asks on a terminal, answered as the owner would (each prompt is the last text printed). */
function answer(output: string) {
  const prompt = output.trimEnd().split('\n').at(-1)!;
  if (prompt.includes('Supabase personal access token')) return TOKEN;
  if (prompt.includes('Cloudflare API token')) return CF_TOKEN;
  if (prompt.includes('Number (')) return output.includes(`1. stand-in (${REF})`) ? '1' : '2';
  if (/passphrase|Again/.test(prompt)) return TEST_PASSPHRASE;
  return 'y';
}
const PROMPTS = /(not shown as you type\)?:|Number \(1-2\): |\[y\/N\] |characters\):|Again:)/g;

/** `waitlist setup …` off a terminal, in `cwd`, with `more` over the test's environment. */
const setup = (args: string[], more: Record<string, string>, cwd = folder) =>
  startCli(['setup', ...args], { ...env, ...more }, [], cwd).done;

describe('waitlist setup', () => {
  it('--dry-run with the Supabase token alone checks what it can, says why not the rest, changes nothing', async () => {
    const run = await setup(['--project-ref', REF, '--dry-run'], { DATABASE_URL: '', SUPABASE_ACCESS_TOKEN: TOKEN });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('to do    2. project settings');
    expect(run.stderr).toMatch(
      /unknown +1\. the Cloudflare Pages project.*\n +cannot check it: needs a Cloudflare token: CLOUDFLARE_API_TOKEN/,
    );
    expect(run.stderr).toMatch(
      /unknown +4\. the migrations.*\n +cannot check it: needs the database password: SUPABASE_DB_PASSWORD/,
    );
    expect(run.stderr).toContain('Dry run: nothing was changed.');
    expect(changes()).toEqual([]);
    expect(readFileSync(join(folder, '.env.local'), 'utf8')).toBe(UNRELATED);
  }, 120_000);

  // Each secret asked on the terminal, unseen; coming-soon.pages.dev is another account's (cloudflare-api.ts).
  it('from nothing to a live site and a proven join on a terminal; a taken Pages name; no secret shown', async () => {
    const fromLog = statSync(cluster.logFile).size;
    const site = cloudflare.live; // the custom domain, served by the stand-in
    const args = ['setup', '--domain', site, '--key-file', 'key.asc'];
    const { code, output } = await onTerminal(args, env, PROMPTS, answer, folder);
    expect(code, output).toBe(0);
    expect(statuses(output)).toEqual(Array(13).fill('changed'));
    expect(output).toContain(`coming-soon.pages.dev is taken: Cloudflare gave the project ${TAKEN}`);
    expect(output).toMatch(/Proven: the live page answers \([^)]*\) and a join works/);

    first = envLocal();
    expect(readFileSync(join(folder, '.env.local'), 'utf8').startsWith(UNRELATED)).toBe(true);
    expect(statSync(join(folder, '.env.local')).mode & 0o777).toBe(0o600);
    expect(first).toMatchObject({
      VITE_SITE_URL: site,
      VITE_SUPABASE_URL: postgrest.url,
      VITE_SUPABASE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      SUPABASE_PROJECT_REF: REF,
      CLOUDFLARE_ACCOUNT_ID: 'acc',
      CLOUDFLARE_PAGES_PROJECT: 'coming-soon',
    });
    expect(first).not.toHaveProperty('CLOUDFLARE_API_TOKEN');
    expect(first).not.toHaveProperty('SUPABASE_ACCESS_TOKEN');

    // The hosted settings (two PATCHes), the function's secrets and deploy, the site uploaded once, built for
    // its address.
    expect(
      changes()
        .filter((call) => call.method === 'PATCH')
        .map((call) => call.body),
    ).toEqual(['{"db_schema":"public"}', '{"disable_signup":true}']);
    expect(Object.fromEntries(api.state.secrets)).toEqual({
      UNSUBSCRIBE_SECRET: first.UNSUBSCRIBE_SECRET,
      UNSUBSCRIBE_DB_URL: first.UNSUBSCRIBE_DB_URL,
    });
    // The function's upload (the CLI bundles on Supabase's side): every file it imports, as it is here, nothing
    // else, and no JWT asked of the mail providers. An import without its extension, which the CLI leaves out
    // without a word, fails `npm run typecheck` (deno check).
    const [upload, ...more] = api.state.deployed;
    expect(more).toEqual([]);
    expect(upload.metadata).toMatchObject({ entrypoint_path: FUNCTION_ENTRY, verify_jwt: false });
    expect(upload.files.map((file) => file.name).sort()).toEqual(importedFiles(FUNCTION_ENTRY).sort());
    for (const file of upload.files) expect(file.text, file.name).toBe(readFileSync(join(ROOT, file.name), 'utf8'));
    // Every migration file recorded as applied by the CLI's db push.
    const pushed = await query(
      env.DATABASE_URL,
      'select version from supabase_migrations.schema_migrations order by 1',
    );
    expect(pushed.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((name) => name.slice(0, 14)));
    expect(cloudflare.deployments).toHaveLength(1);
    const [deployment] = cloudflare.deployments;
    expect(deployment.headers).toContain(`connect-src 'self' ${postgrest.url}`);
    expect(cloudflare.fileOf(deployment, '/index.html')).toContain(`<link rel="canonical" href="${site}/"`);
    expect(await (await fetch(site)).text()).toBe(cloudflare.fileOf(deployment, '/index.html'));
    expect(cloudflare.projects.get('coming-soon')?.domains).toEqual(['coming-soon-4ab.pages.dev', new URL(site).host]);

    // Exactly the site's origins; the roles log in; the health role writes nothing.
    const origins = await query(first.HEALTH_DATABASE_URL, 'select origin from private.allowed_origins order by 1');
    expect(origins.rows.map((row) => row.origin)).toEqual([TAKEN, site].sort());
    await expect(query(first.HEALTH_DATABASE_URL, 'create table public.x ()')).rejects.toThrow(/read-only/);
    expect((await query(first.UNSUBSCRIBE_DB_URL, 'select current_user as u')).rows).toEqual([
      { u: 'waitlist_unsubscribe' },
    ]);

    // What to keep, the GitHub lines (values on stdin), and no secret in the output, the server's log or another file.
    expect(output).toContain('What to keep. Only these cannot be made again');
    expect(output).toContain(`printf %s '${site}' | gh variable set VITE_SITE_URL`);
    expect(output).toContain("sed -n 's/^HEALTH_DATABASE_URL=//p' .env.local | gh secret set DATABASE_URL");
    const log = readFileSync(cluster.logFile).subarray(fromLog).toString();
    expect(log.split('\n').filter((line) => / WARNING: /.test(line))).toEqual([]); // none of db push's either
    expect(log).toContain('SCRAM-SHA-256$4096:');
    const others = readdirSync(folder).filter((file) => file !== '.env.local');
    expect(others).toEqual(['key.asc']);
    for (const secret of secretsOf(first)) {
      expect(output).not.toContain(secret);
      expect(readFileSync(join(folder, 'key.asc'), 'utf8')).not.toContain(secret);
      if (secret !== PASSWORD) expect(log).not.toContain(secret);
    }
  }, 400_000);

  it('again from a fresh clone, no .env.local: every step done or repaired, links sent before still work', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'waitlist-setup-fresh-'));
    // A link signed before, as notify signs it; an origin an earlier setup allowed that no longer serves the site.
    const hash = crypto.getRandomValues(new Uint8Array(32));
    const link = await makeToken(await unsubscribeKey(first.UNSUBSCRIBE_SECRET), hash);
    const owner = await connect(info, 'postgres');
    await owner.query(`insert into private.allowed_origins values ('https://old.pages.dev')`);
    await owner.query(
      `update private.setup_secrets set value = value::jsonb || '["https://old.pages.dev"]'
       where name = 'site_origins'`,
    );
    const secretsBefore = changes().filter((c) => c.path.endsWith('/secrets')).length;
    const deploymentsBefore = cloudflare.deployments.length;
    try {
      const run = await setup(
        ['--key-file', 'key.asc', '--yes'], // the domain: the one attached to the Pages project
        {
          SUPABASE_ACCESS_TOKEN: TOKEN,
          SUPABASE_PROJECT_REF: REF,
          CLOUDFLARE_API_TOKEN_COMMAND: `printf %s '${CF_TOKEN}'`, // a password manager's command
        },
        fresh,
      );
      expect(run.code, run.stderr).toBe(0);
      const repaired = statuses(run.stderr);
      expect(repaired.filter((s) => s !== 'done')).toEqual(['changed', 'changed', 'changed', 'changed', 'changed']);
      expect(run.stderr).toMatch(/changed +4\. \.env\.local/);
      expect(run.stderr).toMatch(/changed +6\. the unsubscribe signing key/);
      expect(run.stderr).toContain('Removed https://old.pages.dev, which setup had allowed');
      expect(run.stderr).toMatch(/done +13\. the site/);

      const again = envLocal(fresh);
      for (const name of ['UNSUBSCRIBE_SECRET', 'UNSUBSCRIBE_DB_URL', 'HEALTH_DATABASE_URL', 'VITE_SITE_URL']) {
        expect(again[name], name).toBe(first[name]);
      }
      const functionKey = await unsubscribeKey(api.state.secrets.get('UNSUBSCRIBE_SECRET')!);
      expect(await readToken(functionKey, link)).toEqual(hash);
      expect(changes().filter((c) => c.path.endsWith('/secrets'))).toHaveLength(secretsBefore);
      expect(cloudflare.deployments).toHaveLength(deploymentsBefore);
      expect((await query(first.HEALTH_DATABASE_URL, 'select current_user as u')).rows).toEqual([
        { u: 'waitlist_health' },
      ]);
      const { rows } = await owner.query('select origin from private.allowed_origins order by 1');
      expect(rows.map((row) => row.origin)).toEqual([TAKEN, cloudflare.live].sort());
      for (const secret of secretsOf(first)) expect(run.stdout + run.stderr).not.toContain(secret);
    } finally {
      await owner.end();
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 300_000);

  it('--rotate-unsubscribe-key says what it voids, asks, sets the new key in the project and function', async () => {
    const declined = await setup(['--rotate-unsubscribe-key'], { SUPABASE_ACCESS_TOKEN: TOKEN });
    expect(declined.code).toBe(2);
    expect(envLocal().UNSUBSCRIBE_SECRET).toBe(first.UNSUBSCRIBE_SECRET);
    const run = await setup(['--rotate-unsubscribe-key', '--yes', '--key-file', 'key.asc'], {
      SUPABASE_ACCESS_TOKEN: TOKEN,
      CLOUDFLARE_API_TOKEN: CF_TOKEN,
    });
    expect(run.stderr).toMatch(
      /changed +6\. the unsubscribe signing key: a new one \(every link already sent stops working\)/,
    );
    expect(run.stderr).toMatch(/changed +11\. the function's secrets/);
    const rotated = envLocal().UNSUBSCRIBE_SECRET;
    expect(rotated).not.toBe(first.UNSUBSCRIBE_SECRET);
    expect(api.state.secrets.get('UNSUBSCRIBE_SECRET')).toBe(rotated);
  }, 300_000);

  it("a failing step names itself, its cause and how to resume; refuses another project's DATABASE_URL", async () => {
    api.state.deployed.length = 0;
    api.state.failing = `POST /v1/projects/${REF}/functions/deploy`;
    const all = { SUPABASE_ACCESS_TOKEN: TOKEN, CLOUDFLARE_API_TOKEN: CF_TOKEN };
    const run = await setup(['--key-file', 'key.asc', '--yes'], all);
    api.state.failing = undefined;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/failed +12\. the function unsubscribe.*\n +supabase functions deploy failed/);
    expect(run.stderr).toContain(
      'Step 12 failed. Once its cause is fixed, resume with (safe to run again):\n' +
        '  npm run waitlist -- setup --key-file key.asc --yes',
    );
    const other = 'postgresql://postgres.otherprojectrefxxxxx:pw@aws-0-eu-west-1.pooler.supabase.com:5432/postgres';
    const refused = await setup(['--yes'], { ...all, DATABASE_URL: other });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("DATABASE_URL is another project's (user postgres.otherprojectrefxxxxx)");
    expect(refused.stderr).not.toContain(':pw@');

    // A key the function holds that the project no longer keeps: not replaced, or every link sent would stop working.
    const fresh = mkdtempSync(join(tmpdir(), 'waitlist-setup-unkept-'));
    const owner = await connect(info, 'postgres');
    const { rows } = await owner.query(
      "delete from private.setup_secrets where name = 'unsubscribe_secret' returning value",
    );
    try {
      const unkept = await setup(['--yes'], { ...all, SUPABASE_PROJECT_REF: REF }, fresh);
      expect(unkept.code).toBe(1);
      expect(unkept.stderr).toMatch(/failed +6\. the unsubscribe signing key.*\n +The unsubscribe function holds/);
      expect(api.state.secrets.get('UNSUBSCRIBE_SECRET')).toBe(rows[0].value);
    } finally {
      await owner.query("insert into private.setup_secrets values ('unsubscribe_secret', $1)", [rows[0].value]);
      await Promise.all([owner.end(), rmSync(fresh, { recursive: true, force: true })]);
    }
  }, 300_000);
});

describe('npm run deploy', () => {
  const deploy = (args: string[], more: Record<string, string> = {}) =>
    startCli(
      ['deploy', '--out-dir', join(folder, 'out'), ...args],
      { ...env, ...first, CLOUDFLARE_API_TOKEN: CF_TOKEN, ...more },
      [],
      folder,
    ).done;

  it('refuses a preview built against the live project before anything is uploaded', async () => {
    const before = cloudflare.deployments.length;
    const run = await deploy(['--preview', 'feature']); // no .env.preview.local: the live values
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /preview build on Cloudflare Pages \(branch feature.*previews must not write into the live list/s,
    );
    expect(cloudflare.deployments).toHaveLength(before);
  }, 120_000);

  it('refuses a CLOUDFLARE_API_BASE_URL that is neither https:// nor this machine before any request', async () => {
    const before = cloudflare.arrived.length;
    // The stand-in's http:// address, with loopback judged like any other host.
    const run = await deploy([], { WAITLIST_NO_LOOPBACK_EXEMPTION: '1' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain('CLOUDFLARE_API_BASE_URL must be https:// (plain http only to this machine).');
    expect(cloudflare.arrived).toHaveLength(before);
  });

  it('names the call Cloudflare refused and stops, printing no token; without one, says how to give it', async () => {
    const wrong = `cf-token-${crypto.randomUUID()}`;
    const run = await deploy([], { CLOUDFLARE_API_TOKEN: wrong });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('waitlist: Cloudflare refused pages/projects/coming-soon: Authentication error');
    expect(run.stderr).not.toContain(wrong);
    const none = await deploy([], { CLOUDFLARE_API_TOKEN: '' });
    expect(none).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('No Cloudflare API token: set CLOUDFLARE_API_TOKEN'),
    });
  }, 120_000);
});

it('leaves no file of the CLI in the repository', () => {
  expect(existsSync(new URL('../../supabase/hosted/supabase/.temp', import.meta.url))).toBe(false);
});

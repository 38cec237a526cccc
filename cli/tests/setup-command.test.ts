/**
 * `waitlist setup` as an owner runs it, on a new project: the real pinned Supabase CLI against the
 * Management API stand-in (management-api.ts, through --profile), the database steps against a
 * throwaway PostgreSQL of its own that looks like a new Supabase project, reached over TCP with a
 * password (SCRAM) and logging every statement. Only a stand-in: Supabase itself was not reached.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPERUSER, startCluster, type Cluster } from '../../supabase/harness/cluster';
import { connect, createSupabaseDatabase, type ConnectionInfo } from '../../supabase/harness/database';
import { PUBLISHABLE_KEY, REF, startManagementApi, TOKEN } from './management-api';
import { startCli } from './run-cli';
import { onTerminal } from './terminal';

const PASSWORD = 'the-owner-database-password';
const SITE = 'https://waitlist.example';
const ARGS = [
  'setup',
  '--project-ref',
  REF,
  '--site',
  SITE,
  '--domain',
  'www.waitlist.example',
  '--key-file',
  'key.asc',
  '--yes',
];
const UNRELATED = '# mine\nSMTP_URL=smtps://user:pass@smtp.example:465\n';
const RESUME = `npm run waitlist -- setup --project-ref ${REF} --site ${SITE} --domain www.waitlist.example --key-file key.asc`;

let cluster: Cluster;
let info: ConnectionInfo;
let api: Awaited<ReturnType<typeof startManagementApi>>;
let folder: string;
let env: Record<string, string>;

beforeAll(async () => {
  cluster = await startCluster({ tcp: true, settings: ['log_statement=all'] });
  info = await createSupabaseDatabase(cluster);
  const superuser = await connect(info, SUPERUSER);
  await superuser.query(`alter role postgres password '${PASSWORD}'`);
  writeFileSync(join(cluster.dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n');
  await superuser.query('select pg_reload_conf()').finally(() => superuser.end());
  api = await startManagementApi();
  folder = mkdtempSync(join(tmpdir(), 'waitlist-setup-test-'));
  writeFileSync(join(folder, '.env.local'), UNRELATED);
  env = {
    DATABASE_URL: `postgresql://postgres:${PASSWORD}@127.0.0.1:${cluster.port}/${info.database}?sslmode=disable`,
    SUPABASE_ACCESS_TOKEN: TOKEN,
    SUPABASE_API_URL: api.url,
  };
}, 120_000);

afterAll(async () => {
  await api?.close();
  await cluster?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const setup = (args: string[] = []) => startCli([...ARGS, ...args], env, [], folder).done;
const envLocal = () => parseEnv(readFileSync(join(folder, '.env.local'), 'utf8'));
const changes = () => api.calls.filter((call) => call.method !== 'GET');
const statuses = (stderr: string) =>
  [...stderr.matchAll(/^(done|changed|failed|to do|unknown) +\d+\. /gm)].map(([, status]) => status);

async function logsIn(url: string, sql: string) {
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

describe('waitlist setup', () => {
  it('--dry-run checks every step and changes nothing', async () => {
    const { code, stderr } = await setup(['--dry-run']);
    expect(code, stderr).toBe(0);
    expect(statuses(stderr)).toHaveLength(9);
    expect(statuses(stderr)).not.toContain('changed');
    expect(stderr).toContain('Dry run: nothing was changed.');
    expect(changes()).toEqual([]);
    expect(readFileSync(join(folder, '.env.local'), 'utf8')).toBe(UNRELATED);
    const owner = await connect(info, 'postgres');
    const { rows } = await owner.query(`select to_regclass('private.key_holders') as t`).finally(() => owner.end());
    expect(rows[0].t).toBeNull();
  });

  it('takes the new project to a ready list, sending only verifiers and printing no secret', async () => {
    const fromLog = statSync(cluster.logFile).size;
    const { code, stdout, stderr } = await setup();
    expect(code, stderr).toBe(0);
    expect(statuses(stderr)).toEqual(Array(9).fill('changed'));

    // The hosted settings: only the two properties, as PATCHes the CLI sent.
    expect(changes().filter((call) => call.method === 'PATCH')).toMatchObject([
      { path: `/v1/projects/${REF}/postgrest`, body: '{"db_schema":"public"}' },
      { path: `/v1/projects/${REF}/config/auth`, body: '{"disable_signup":true}' },
    ]);
    const values = envLocal();
    expect(Object.fromEntries(api.state.secrets)).toEqual({
      UNSUBSCRIBE_SECRET: values.UNSUBSCRIBE_SECRET,
      UNSUBSCRIBE_DB_URL: values.UNSUBSCRIBE_DB_URL,
    });
    expect(api.state.deployed).toEqual([{ slug: 'unsubscribe', verifyJwt: false }]);

    // .env.local: merged, readable by the owner only.
    expect(statSync(join(folder, '.env.local')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(folder, '.env.local'), 'utf8').startsWith(UNRELATED)).toBe(true);
    expect(values).toMatchObject({
      VITE_SITE_URL: 'https://www.waitlist.example', // the custom domain
      VITE_SUPABASE_URL: `https://${REF}.supabase.co`,
      VITE_SUPABASE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      SUPABASE_PROJECT_REF: REF,
      DATABASE_URL: env.DATABASE_URL,
    });
    expect(statSync(join(folder, 'key.asc')).mode & 0o777).toBe(0o600);

    // The roles log in with their generated passwords; the health role reads settings, writes nothing.
    const [unsubscribe, health] = [values.UNSUBSCRIBE_DB_URL!, values.HEALTH_DATABASE_URL!];
    expect(unsubscribe).toMatch(/^postgresql:\/\/waitlist_unsubscribe:[0-9a-f]{64}@127\.0\.0\.1:\d+\/waitlist$/);
    expect((await logsIn(unsubscribe, 'select current_user as u')).rows).toEqual([{ u: 'waitlist_unsubscribe' }]);
    const origins = await logsIn(health, 'select origin from private.allowed_origins order by 1');
    expect(origins.rows.map((row) => row.origin)).toEqual([SITE, 'https://www.waitlist.example']);
    await expect(logsIn(health, 'create table public.x ()')).rejects.toThrow(/read-only transaction/);

    // No secret in the server's log (every statement logged) nor in the output.
    const log = readFileSync(cluster.logFile).subarray(fromLog).toString();
    expect(log).toContain('SCRAM-SHA-256$4096:');
    for (const secret of [new URL(unsubscribe).password, new URL(health).password, values.UNSUBSCRIBE_SECRET!]) {
      expect(log).not.toContain(secret);
      expect(stdout + stderr).not.toContain(secret);
    }
    expect(stdout + stderr).not.toContain(PASSWORD);
    // The CLI's .temp/ files (the linked project) went to a copy of supabase/hosted, not into the repository.
    expect(existsSync(fileURLToPath(new URL('../../supabase/hosted/supabase/.temp', import.meta.url)))).toBe(false);
  }, 300_000);

  it('a rerun, even with no option (the ref and site from .env.local), finds every step done and changes nothing', async () => {
    const before = changes().length;
    const { code, stderr } = await startCli(['setup', '--yes'], env, [], folder).done;
    expect(code, stderr).toBe(0);
    expect(statuses(stderr)).toEqual(Array(9).fill('done'));
    expect(changes()).toHaveLength(before);
  }, 300_000);

  it("names the project and changes nothing without --yes off a terminal; refuses another project's DATABASE_URL", async () => {
    const before = changes().length;
    const asked = await startCli(
      ARGS.filter((arg) => arg !== '--yes'),
      env,
      [],
      folder,
    ).done;
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('Not on a terminal: add --yes to confirm.');
    const other = 'postgresql://postgres.otherprojectrefxxxxx:pw@aws-0-eu-west-1.pooler.supabase.com:5432/postgres';
    const refused = await startCli(['setup', '--yes'], { ...env, DATABASE_URL: other }, [], folder).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("DATABASE_URL is another project's (user postgres.otherprojectrefxxxxx)");
    expect(refused.stderr).not.toContain(':pw@');
    expect(changes()).toHaveLength(before);
  }, 300_000);

  it('a failing step names itself, its cause and the command that resumes', async () => {
    api.state.deployed.length = 0;
    api.state.failing = `POST /v1/projects/${REF}/functions/deploy`;
    const { code, stderr } = await setup();
    api.state.failing = undefined;
    expect(code).toBe(1);
    expect(statuses(stderr)).toEqual([...Array(8).fill('done'), 'failed']);
    expect(stderr).toMatch(/failed +9\. the function unsubscribe[^\n]*\n +supabase functions deploy failed/);
    expect(stderr).toContain(`Step 9 failed. Once its cause is fixed, resume with (safe to run again):\n  ${RESUME}`);
  }, 300_000);

  it('on a terminal, asks for the database password unseen, and keeps none that does not connect', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'waitlist-setup-terminal-'));
    try {
      const typed = 'p@ss/wörd#1';
      const { code, output } = await onTerminal(
        ['setup', '--project-ref', REF, '--site', SITE, '--yes'],
        { ...env, DATABASE_URL: '' },
        'not shown as you type:',
        typed,
        fresh,
      );
      expect(output).not.toContain(typed);
      // Nothing listens for this project on the pooler's 127.0.0.1:5432: stopped before any step, and
      // a password that did not connect is never kept.
      expect(output).toContain('waitlist: Could not reach the database (ECONNREFUSED)');
      expect(code).not.toBe(0);
      expect(existsSync(join(fresh, '.env.local'))).toBe(false);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});

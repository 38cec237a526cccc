/**
 * npm run test:db-push: the move of a project that pushed the chain of 2026-11-26, with the pinned
 * Supabase CLI (~135 MB, run by npx; not a dependency of the project) and the `db push` lines of
 * supabase/README.md ("Deploy to Supabase"), word for word, without a terminal, against a throwaway
 * PostgreSQL that looks like a new Supabase project: that chain pushed, signups (some sealed), then
 * `npm run waitlist -- baseline --yes` with a password that only PGPASSWORD may carry to the CLI: the
 * history lists exactly the baseline's versions; `db push` then applies the files after the
 * baseline, and once more has nothing left; the signups stay. (A new project's push of every file is
 * setup's step, run with the same CLI in cli/tests/setup-live.test.ts.) Fails on a failed command, on
 * any warning in the CLI's output or the server's log.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { insertEmail } from '../supabase/harness/api-request';
import { SUPERUSER, startCluster, type Cluster } from '../supabase/harness/cluster';
import { connect, createSupabaseDatabase, type ConnectionInfo } from '../supabase/harness/database';
import { sealList } from '../supabase/harness/sealed';
import { BASELINE, MIGRATIONS } from '../cli/database/migrations';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = join(ROOT, 'supabase/README.md');
const CHAIN = join(ROOT, 'supabase/tests/fixtures/chain-2026-11-26');
const PASSWORD = 'not-on-any-command-line';

/** The documented push commands: the lines of the README's code blocks that run `db push`. */
function documentedPushes(): string[] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const commands = lines.filter((line) => /^npx .*\bsupabase@[\d.]+ db push /.test(line));
  if (!commands.length) throw new Error('supabase/README.md shows no `npx … supabase@<version> db push` line.');
  return commands.map((line) => line.replace(/\s+#.*$/, ''));
}

/** The CLI marks its own warnings with ▲; the server's, passed on, would say WARNING. */
const warnings = (text: string) => text.split('\n').filter((line) => /^\s*▲|warn/i.test(line));
const failures: string[] = [];
const check = (ok: boolean, what: string) => (ok ? console.log(`ok: ${what}`) : failures.push(what));

/** Runs `command` in bash with DATABASE_URL set, in `cwd`; returns its output. */
async function shell(command: string, databaseUrl: string, cwd = ROOT): Promise<string> {
  console.log(`$ ${command}`);
  // stdin is not a terminal here, as in CI: a command that would ask fails instead.
  const { stdout, stderr } = await run('bash', ['-c', command], {
    cwd,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 10 * 60_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`Failed: ${command}\n${error.stdout ?? ''}${error.stderr ?? ''}`, { cause: error });
  });
  process.stdout.write(stdout + stderr);
  check(!warnings(stdout + stderr).length, `no warning from ${command}`);
  return stdout + stderr;
}

const pushAll = async (url: string, cwd?: string) => {
  let output = '';
  for (const command of documentedPushes()) output += await shell(command, url, cwd);
  return output;
};

async function history(info: ConnectionInfo): Promise<string[]> {
  const owner = await connect(info, 'postgres');
  const { rows } = await owner
    .query<{ name: string }>(
      `select version || '_' || name || '.sql' as name from supabase_migrations.schema_migrations order by 1`,
    )
    .finally(() => owner.end());
  return rows.map((row) => row.name);
}

/** A throwaway server reachable over TCP (the CLI takes a host name), and its Supabase-like database. */
async function withServer(work: (info: ConnectionInfo, url: string, cluster: Cluster) => Promise<void>) {
  const cluster = await startCluster({ tcp: true });
  try {
    const info = await createSupabaseDatabase(cluster);
    // The throwaway server has no TLS: say so, or the CLI warns that it fell back to plain TCP.
    await work(info, `postgresql://postgres@127.0.0.1:${cluster.port}/${info.database}?sslmode=disable`, cluster);
    const serverWarnings = readFileSync(cluster.logFile, 'utf8')
      .split('\n')
      .filter((line) => / WARNING: /.test(line));
    for (const line of serverWarnings) console.error(`  ${line}`);
    check(!serverWarnings.length, "no warning in the server's log");
  } finally {
    await cluster.stop();
  }
}

const baselineFiles = MIGRATIONS.filter((name) => BASELINE.includes(name.slice(0, 14)));

await withServer(async (info, url, cluster) => {
  const project = mkdtempSync(join(tmpdir(), 'waitlist-chain-'));
  try {
    cpSync(CHAIN, join(project, 'supabase/migrations'), { recursive: true });
    await pushAll(url, project);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
  const api = await connect(info, 'authenticator');
  const owner = await connect(info, 'postgres');
  try {
    await insertEmail(api, 'before.sealing@example.com');
    await sealList(owner);
    await insertEmail(api, 'after.sealing@example.com');
  } finally {
    await api.end();
    await owner.end();
  }
  // From here on `postgres` logs in over TCP with a password only.
  const superuser = await connect(info, SUPERUSER);
  await superuser.query(`alter role postgres password '${PASSWORD}'`);
  writeFileSync(join(cluster.dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n');
  await superuser.query('select pg_reload_conf()').finally(() => superuser.end());
  const withPassword = url.replace('postgres@', `postgres:${PASSWORD}@`);

  const moved = await shell('npm run -s waitlist -- baseline --yes', withPassword);
  check(!moved.includes(PASSWORD), 'the password is in none of the output');
  check(
    JSON.stringify(await history(info)) === JSON.stringify(baselineFiles),
    'the history lists the baseline, nothing else',
  );
  await pushAll(withPassword);
  check(
    JSON.stringify(await history(info)) === JSON.stringify(MIGRATIONS),
    '`db push` then applied the files after it',
  );
  const again = await pushAll(withPassword);
  check(/Remote database is up to date/.test(again), '`db push` has nothing left to apply');
  const owner2 = await connect(info, 'postgres');
  const { rows } = await owner2
    .query<{ n: number }>('select count(*)::int as n from private.signup_addresses where seal is not null')
    .finally(() => owner2.end());
  check(rows[0].n === 2, 'both signups kept, sealed');
});
if (failures.length) {
  for (const failure of failures) console.error(`FAILED: ${failure}`);
  process.exitCode = 1;
}

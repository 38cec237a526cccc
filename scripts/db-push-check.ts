/**
 * npm run test:db-push: the migrations as an owner applies them. Runs the `db push` lines of
 * supabase/README.md ("Deploy to Supabase") word for word, without a terminal, against a fresh
 * throwaway PostgreSQL that looks like a new Supabase project, then the push again (nothing left
 * to apply). Fails on a failed command, on any warning in the CLI's output or the server's log,
 * and unless every migration file is recorded as applied. The CLI (~135 MB, run by npx) is not a
 * dependency of the project.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { startCluster } from '../supabase/harness/cluster';
import { connect, createSupabaseDatabase } from '../supabase/harness/database';

const run = promisify(execFile);
const README = new URL('../supabase/README.md', import.meta.url);
const MIGRATIONS = new URL('../supabase/migrations/', import.meta.url);

/** The documented push commands: the lines of the README's code blocks that run `db push`. */
function documentedPushes(): string[] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const commands = lines.filter((line) => /^npx .*\bsupabase@[\d.]+ db push /.test(line));
  if (!commands.length) throw new Error('supabase/README.md shows no `npx … supabase@<version> db push` line.');
  return commands.map((line) => line.replace(/\s+#.*$/, ''));
}

/** The CLI marks its own warnings with ▲; the server's, passed on, would say WARNING. */
const warnings = (text: string) => text.split('\n').filter((line) => /^\s*▲|warn/i.test(line));

async function push(command: string, databaseUrl: string): Promise<string[]> {
  console.log(`$ ${command}`);
  // stdin is not a terminal here, as in CI: a command that would ask fails instead.
  const { stdout, stderr } = await run('bash', ['-c', command], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 10 * 60_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`Failed: ${command}\n${error.stdout ?? ''}${error.stderr ?? ''}`, { cause: error });
  });
  process.stdout.write(stdout + stderr);
  return warnings(stdout + stderr);
}

const cluster = await startCluster({ tcp: true });
try {
  const info = await createSupabaseDatabase(cluster);
  // The throwaway server has no TLS: say so, or the CLI warns that it fell back to plain TCP.
  const databaseUrl = `postgresql://postgres@127.0.0.1:${cluster.port}/${info.database}?sslmode=disable`;
  const cliWarnings: string[] = [];
  for (const round of ['first push', 'second push (nothing to apply)']) {
    console.log(`\n# ${round}`);
    for (const command of documentedPushes()) cliWarnings.push(...(await push(command, databaseUrl)));
  }

  const owner = await connect(info, 'postgres');
  const applied = await owner
    .query<{ name: string }>(
      `select version || '_' || name || '.sql' as name from supabase_migrations.schema_migrations`,
    )
    .finally(() => owner.end());
  const files = readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql'));
  const missing = files.filter((name) => !applied.rows.some((row) => row.name === name));

  const serverWarnings = readFileSync(cluster.logFile, 'utf8')
    .split('\n')
    .filter((line) => / WARNING: /.test(line));
  console.log(
    `\n${files.length - missing.length} of ${files.length} migrations applied; warnings: ` +
      `${cliWarnings.length} in the CLI's output, ${serverWarnings.length} in the server's log.`,
  );
  for (const line of [...cliWarnings, ...serverWarnings]) console.error(`  ${line}`);
  if (missing.length) console.error(`Not applied: ${missing.join(', ')}`);
  if (missing.length || cliWarnings.length || serverWarnings.length) process.exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await cluster.stop();
}

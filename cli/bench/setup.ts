/** Shared by the benchmarks: a throwaway database with N signups, and a command's time and peak memory. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startCluster, type Cluster } from '../../supabase/tests/cluster';
import { connect, type ConnectionInfo } from '../../supabase/tests/database';
import { createWaitlistDatabase } from '../../supabase/tests/migrations';

const run = promisify(execFile);
export const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

/** Default durability (fsync on), as the db benchmark does, so the figures mean something. */
export async function listOf(rows: number): Promise<{ cluster: Cluster; info: ConnectionInfo; url: string }> {
  const cluster = await startCluster({ durable: true });
  const info = await createWaitlistDatabase(cluster);
  const owner = await connect(info, 'postgres');
  await owner.query(
    `insert into public.waiting_list (email, created_at)
     select 'bench-' || i || '@example.com', now() - i * interval '1 second' from generate_series(1, $1) i`,
    [rows],
  );
  await owner.query('vacuum analyze');
  await owner.end();
  const url = `postgresql://postgres@localhost/${info.database}?host=${encodeURIComponent(info.host)}&port=${info.port}`;
  return { cluster, info, url };
}

/** Wall time and peak resident memory of one command, by GNU time. */
export async function measure(command: string, args: string[], env: Record<string, string> = {}) {
  const { stderr } = await run('/usr/bin/time', ['-f', 'BENCH %e %M', command, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 26,
  });
  const [, seconds, kilobytes] = /BENCH ([\d.]+) (\d+)/.exec(stderr)!;
  return { seconds: Number(seconds), peakMB: Math.round(Number(kilobytes) / 1024) };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

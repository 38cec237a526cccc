/** Shared by the benchmarks: a throwaway sealed database with N signups, and a command's time and peak memory. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startCluster, type Cluster } from '../../supabase/harness/cluster';
import { connect, type ConnectionInfo } from '../../supabase/harness/database';
import { createWaitlistDatabase } from '../../supabase/harness/migrations';
import { ownerKeyFile, sealList } from '../../supabase/harness/sealed';

const run = promisify(execFile);
export const MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** A month of hours, each with its own sealing key. */
export const STEPS = 720;

/** keyFile: the owner's private key in a 0600 file, what WAITLIST_OWNER_KEY_FILE names ('' when not sealed). */
export type BenchList = { cluster: Cluster; info: ConnectionInfo; url: string; keyFile: string };

/**
 * Default durability (fsync on), as the db benchmark does, so the figures mean something. The
 * list is sealed first, then filled oldest first through the signup trigger, the sealing clock
 * moved an hour between equal slices: `rows` signups spread over STEPS hourly keys. With
 * `sealed: false`, the same signups on a list not sealed yet (before `keys init`), stored as typed.
 */
export async function listOf(rows: number, { sealed = true } = {}): Promise<BenchList> {
  const cluster = await startCluster({ durable: true });
  const info = await createWaitlistDatabase(cluster);
  const owner = await connect(info, 'postgres');
  const keyFile = sealed ? ownerKeyFile(await sealList(owner)) : '';
  const slice = Math.ceil(rows / STEPS);
  for (let from = rows, hour = 0; from > 0; from -= slice, hour += 1) {
    await owner.query(
      `create or replace function private.seal_clock() returns timestamptz language sql stable set search_path = ''
       as $$ select now() + interval '${hour} hours' $$`,
    );
    await owner.query(
      `insert into public.waiting_list (email, created_at)
       select 'bench-' || i || '@example.com', now() - i * interval '1 second'
       from generate_series($1::int, greatest($2::int, 1), -1) i`,
      [from, from - slice + 1],
    );
  }
  await owner.query(
    `create or replace function private.seal_clock() returns timestamptz language sql stable set search_path = ''
     as $$ select now() $$`,
  );
  await owner.query('vacuum analyze');
  await owner.end();
  const host = encodeURIComponent(info.host);
  const url = `postgresql://postgres@localhost/${info.database}?host=${host}&port=${info.port}`;
  return { cluster, info, url, keyFile };
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

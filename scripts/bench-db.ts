/**
 * npm run bench:db — signups per second through the anon role (row-level security and the abuse
 * guard on) and the latency of refusing a duplicate, with 0 and with 1,000,000 rows on the list.
 * Its own throwaway PostgreSQL with default durability (fsync on). Prints figures; asserts nothing.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { insertEmail, refusal } from '../supabase/tests/api-request';
import { startCluster, SUPERUSER } from '../supabase/tests/cluster';
import { connect, createWaitlistDatabase, type ConnectionInfo } from '../supabase/tests/database';

const INSERTS = 5_000;
const DUPLICATES = 1_000;
const BULK_ROWS = 1_000_000;

type Figures = { rows: string; insertsPerSecond: number; duplicateP50ms: number; duplicateP95ms: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Each signup is one PostgREST-like request from its own address, so the guard runs but never refuses. */
async function measure(api: Client, label: string, rows: string): Promise<Figures> {
  const started = performance.now();
  for (let i = 0; i < INSERTS; i += 1) await insertEmail(api, `bench-${label}-${i}@example.com`);
  const seconds = (performance.now() - started) / 1000;

  const latencies: number[] = [];
  for (let i = 0; i < DUPLICATES; i += 1) {
    const sent = performance.now();
    const error = await refusal(insertEmail(api, `BENCH-${label}-${i}@EXAMPLE.COM`));
    latencies.push(performance.now() - sent);
    if (error.code !== '23505') throw error;
  }
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    rows,
    insertsPerSecond: Math.round(INSERTS / seconds),
    duplicateP50ms: ms(percentile(latencies, 0.5)),
    duplicateP95ms: ms(percentile(latencies, 0.95)),
  };
}

/** Flush the bulk load to disk first, so its checkpoint does not land inside the measurement. */
async function settle(info: ConnectionInfo) {
  const admin = await connect(info, SUPERUSER);
  await admin.query('checkpoint');
  await admin.end();
}

async function main() {
  const cluster = await startCluster({ durable: true });
  const stopOnSignal = () => void cluster.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const info = await createWaitlistDatabase(cluster);
    const api = await connect(info, 'authenticator');
    const owner = await connect(info, 'postgres');
    const { rows: [server] } = await owner.query(`select current_setting('server_version') as version`);

    const figures = [await measure(api, 'empty', '0')];

    const loading = performance.now();
    await owner.query(
      `insert into public.waiting_list (email) select 'bulk-' || g || '@example.com' from generate_series(1, $1::int) g`,
      [BULK_ROWS],
    );
    await owner.query('vacuum analyze public.waiting_list');
    const loadSeconds = (performance.now() - loading) / 1000;
    await settle(info);

    figures.push(await measure(api, 'full', '1,000,000'));
    await api.end();
    await owner.end();

    console.log(`PostgreSQL ${server.version}, ${cpus().length} cores, fsync on; one connection over a Unix socket.`);
    console.log('Each request: BEGIN, set_config (role anon, claims, headers), INSERT, COMMIT — as PostgREST runs it.');
    console.log(`${INSERTS} signups and ${DUPLICATES} duplicates per row count; 1,000,000 rows bulk-loaded in ${loadSeconds.toFixed(1)} s.\n`);
    console.table(figures);
  } finally {
    await cluster.stop();
  }
}

await main();

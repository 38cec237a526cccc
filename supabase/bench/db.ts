/**
 * npm run bench:db — signups per second through the anon role (row-level security and the abuse
 * guard on) and the latency of refusing a duplicate, with 0 and with 1,000,000 rows on the list;
 * then a launch-day load (supabase/bench/launch-day.ts): 32 connections, 11,400 real signups from
 * 1,000 networks mixed with one network flooding. The list is sealed first (as after `waitlist keys
 * init`), so every signup is sealed, the 1,000,000 bulk rows included. Its own throwaway PostgreSQL
 * with default durability (fsync on). Prints figures; exits non-zero only if a real signup was
 * refused or lost, or the flood got in more or less than the cap in force. `-- --before
 * <migration>`: launch day alone, before and after that migration alternately in one run
 * (compareLaunchDays).
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { insertEmail, refusal } from '../harness/api-request';
import { startCluster, SUPERUSER } from '../harness/cluster';
import { connect, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase } from '../harness/migrations';
import { sealList } from '../harness/sealed';
import { compareLaunchDays, CONNECTIONS, launchDayLoad, percentileMs } from './launch-day';

const INSERTS = 5_000;
const DUPLICATES = 1_000;
const BULK_ROWS = 1_000_000;

type Figures = { rows: string; insertsPerSecond: number; duplicateP50ms: number; duplicateP95ms: number };

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
  return {
    rows,
    insertsPerSecond: Math.round(INSERTS / seconds),
    duplicateP50ms: percentileMs(latencies, 0.5),
    duplicateP95ms: percentileMs(latencies, 0.95),
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
  const beforeAt = process.argv.indexOf('--before');
  if (beforeAt >= 0) {
    try {
      await compareLaunchDays(cluster, process.argv[beforeAt + 1], Number(process.env.BENCH_ROUNDS ?? 2));
    } finally {
      await cluster.stop();
    }
    return;
  }
  const stopOnSignal = () => void cluster.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const info = await createWaitlistDatabase(cluster);
    const api = await connect(info, 'authenticator');
    const owner = await connect(info, 'postgres');
    await sealList(owner); // as after `waitlist keys init`: every signup below is sealed
    const {
      rows: [server],
    } = await owner.query(`select current_setting('server_version') as version`);

    const figures = [await measure(api, 'empty', '0')];
    const load = await launchDayLoad(info, owner);

    const loading = performance.now();
    await owner.query(
      `insert into public.waiting_list (email)
       select 'bulk-' || g || '@example.com' from generate_series(1, $1::int) g`,
      [BULK_ROWS],
    );
    await owner.query('vacuum analyze public.waiting_list');
    const loadSeconds = (performance.now() - loading) / 1000;
    await settle(info);

    figures.push(await measure(api, 'full', '1,000,000'));
    await api.end();
    await owner.end();

    console.log(
      `PostgreSQL ${server.version}, ${cpus().length} cores (${cpus()[0]?.model}), ` +
        `${Math.round(totalmem() / 2 ** 30)} GiB, fsync on; ` +
        `pg_cron ${cluster.cron ? 'loaded' : 'absent'}; Unix socket.`,
    );
    console.log('Single connection:');
    console.log('Each request: BEGIN, set_config (role anon, claims, headers), INSERT, COMMIT — as PostgREST runs it.');
    console.log(
      `${INSERTS} signups and ${DUPLICATES} duplicates per row count; ` +
        `1,000,000 rows bulk-loaded in ${loadSeconds.toFixed(1)} s.\n`,
    );
    console.table(figures);

    console.log(
      `\nLaunch day: ${CONNECTIONS} connections as anon (through authenticator), one PostgREST-like transaction per ` +
        `signup; ${load.realSignups} real signups from 1,000 networks (690 IPv4 addresses x 10, 10 gateways x 150, ` +
        `300 IPv6 /64s in 30 /48s x 10) shuffled with ${load.floodAttempts} attempts from one flooding address; ` +
        `shipped limits; list already holding ${INSERTS} rows.`,
    );
    console.table([
      {
        requests: load.requests,
        seconds: load.seconds,
        'signups accepted / s': load.acceptedPerSecond,
        'p50 ms': load.p50ms,
        'p95 ms': load.p95ms,
        'p99 ms': load.p99ms,
      },
    ]);
    console.log(
      `Real signups refused: ${load.realRefused}; lost (accepted but not on the list): ${load.realLost} (must be 0)`,
    );
    console.log(
      `Flood admitted: ${load.floodAdmitted} of ${load.floodAttempts}; cap in force: ${load.floodCap} ` +
        `(${load.floodSlots} 10-minute slot${load.floodSlots === 1 ? '' : 's'}) (must be equal)`,
    );
    for (const example of load.refusedExamples) console.log(`  refused: ${example}`);
    const wrong =
      load.realRefused > 0 || load.realLost !== 0 || load.floodAdmitted !== load.floodCap || load.floodSlots !== 1;
    if (wrong) {
      console.error('\nWRONG: a real signup was refused or lost, or the flood was not held to its cap.');
      process.exitCode = 1;
    }
  } finally {
    await cluster.stop();
  }
}

await main();

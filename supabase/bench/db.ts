/**
 * npm run bench:db — signups per second through the anon role (row-level security and the abuse
 * guard on) and the latency of refusing a duplicate, with 0 and with 1,000,000 rows on the list;
 * then a launch-day load: 32 connections, 11,400 real signups from 1,000 networks mixed with
 * one network flooding. The list is sealed first (as after `waitlist keys init`), so every
 * signup is sealed, the 1,000,000 bulk rows included. Its own throwaway PostgreSQL with default durability (fsync on).
 * Prints figures; exits non-zero only if a real signup was refused or lost, or the flood got in
 * more or less than the cap in force. `-- --before <migration>`: launch day alone, before and after
 * that migration alternately in one run (compareLaunchDays).
 */
import { cpus, totalmem } from 'node:os';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseError, type Client } from 'pg';
import { insertEmail, refusal } from '../harness/api-request';
import { startCluster, SUPERUSER, type Cluster } from '../harness/cluster';
import { connect, createEmptyDatabase, createSupabaseDatabase, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase, migrate, migrationFiles } from '../harness/migrations';
import { sealList } from '../harness/sealed';

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

/** One request of the launch-day load. */
type Signup = { email: string; clientIp: string; flood: boolean };

const CONNECTIONS = 32;
const floodNetwork = (round: number) => `198.51.${100 + round}.66`;
const FLOOD_ATTEMPTS = 2_000;

/**
 * 1,000 networks: 690 IPv4 addresses with 10 signups each, 10 corporate gateways (IPv4) with 150
 * each, and 300 IPv6 /64s (10 in each of 30 /48s) with 10 each: 11,400 real signups, none over
 * a shipped limit. Plus 2,000 attempts from one flooding address. Shuffled together.
 */
function launchDay(round = 0): Signup[] {
  const signups: Signup[] = [];
  const add = (clientIp: string, count: number, flood = false) => {
    for (let i = 0; i < count; i += 1)
      signups.push({ email: `launch-${round ? `${round}-` : ''}${signups.length}@example.com`, clientIp, flood });
  };
  // Round 0 is the classic launch day; later rounds (--before) use networks of their own.
  for (let n = 0; n < 690; n += 1) add(`203.${round}.${113 + (n >> 8)}.${n & 255}`, 10);
  for (let n = 0; n < 10; n += 1) add(`192.${round}.2.${n + 1}`, 150);
  for (let site = 0; site < 30; site += 1) {
    for (let line = 0; line < 10; line += 1)
      add(
        `2001:db8:${(round * 256 + site).toString(16)}:${line.toString(16)}::${(site * 10 + line + 1).toString(16)}`,
        10,
      );
  }
  add(floodNetwork(round), FLOOD_ATTEMPTS, true);
  for (let i = signups.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [signups[i], signups[j]] = [signups[j], signups[i]];
  }
  return signups;
}

/**
 * The flood's cap is the 10-minute limit of one slot, so the load must not straddle a slot
 * boundary: if fewer than two minutes are left in the current slot, start in the next one.
 */
async function awayFromSlotEnd(owner: Client) {
  const { rows } = await owner.query(
    `select extract(epoch from date_bin('10 minutes', now(), timestamptz '2000-01-01 00:00:00+00') + interval '10 minutes' - now()) as left`,
  );
  const left = Number(rows[0].left);
  if (left < 120) {
    console.log(`Waiting ${Math.ceil(left)} s for the next 10-minute slot, so the load runs within one.`);
    await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
  }
}

async function launchDayLoad(info: ConnectionInfo, owner: Client, round = 0) {
  const signups = launchDay(round);
  const real = signups.filter((signup) => !signup.flood);
  await awayFromSlotEnd(owner);
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(info, 'authenticator')));
  const latencies: number[] = [];
  const realRefused: string[] = [];
  let floodAdmitted = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < signups.length) {
        const signup = signups[next];
        next += 1;
        const sent = performance.now();
        try {
          await insertEmail(client, signup.email, { clientIp: signup.clientIp });
          if (signup.flood) floodAdmitted += 1;
        } catch (error) {
          if (!(error instanceof DatabaseError)) throw error;
          if (!signup.flood)
            realRefused.push(`${signup.email} from ${signup.clientIp}: ${error.code} ${error.message}`);
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.end()));

  const { rows: listed } = await owner.query(
    `select count(*)::int as n from private.signup_addresses
     where address_hash in (select private.address_hash(e) from unnest($1::text[]) e)`,
    [real.map((signup) => signup.email)],
  );
  const { rows: limits } = await owner.query(
    `select per_10_minutes, per_day from private.signup_limits where scope = 'ipv4'`,
  );
  const { rows: floodSlots } = await owner.query(
    `select slot_start, signups from private.signup_counts
     where network = private.network_hash($1 || '/32', slot_start) and slot_end - slot_start = interval '10 minutes'`,
    [floodNetwork(round)],
  );
  const cap = Math.min(limits[0].per_10_minutes, limits[0].per_day); // one slot (awayFromSlotEnd)
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    requests: signups.length,
    realSignups: real.length,
    networks: 1_001,
    seconds: Math.round(seconds * 10) / 10,
    acceptedPerSecond: Math.round((listed[0].n + floodAdmitted) / seconds),
    p50ms: ms(percentile(latencies, 0.5)),
    p95ms: ms(percentile(latencies, 0.95)),
    p99ms: ms(percentile(latencies, 0.99)),
    realRefused: realRefused.length,
    realLost: real.length - realRefused.length - listed[0].n,
    floodAttempts: FLOOD_ATTEMPTS,
    floodAdmitted,
    floodCap: cap,
    floodSlots: floodSlots.length,
    refusedExamples: realRefused.slice(0, 3),
  };
}

/**
 * --before <migration>: launch day only, alternately on two databases of one server, one migrated
 * up to (not including) that migration, one with every migration: before, after, before, after, …
 * Each round has networks and addresses of its own; two rounds per database stay within one slot's
 * 'all' limit (30,000). Both databases are sealed (sealList); neither runs pg_cron (it serves
 * one database).
 */
async function compareLaunchDays(cluster: Cluster, before: string, rounds: number) {
  const databases = [] as { label: string; info: ConnectionInfo; owner: Client }[];
  const shared = await createSupabaseDatabase(cluster); // Supabase's roles, for the whole server
  for (const [label, files] of [
    ['before', migrationFiles().filter((path) => basename(path) < before)],
    ['after', migrationFiles()],
  ] as const) {
    const info = { ...(await createEmptyDatabase(shared, `bench_${label}`)), cron: false };
    await migrate(info, { files });
    const owner = await connect(info, 'postgres');
    await sealList(owner);
    databases.push({ label, info, owner });
  }
  const table: Record<string, string | number>[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const { label, info, owner } of databases) {
      const load = await launchDayLoad(info, owner, round);
      table.push({
        round,
        migrations: label,
        seconds: load.seconds,
        'signups accepted / s': load.acceptedPerSecond,
        'p50 ms': load.p50ms,
        'p95 ms': load.p95ms,
        'p99 ms': load.p99ms,
        'real refused': load.realRefused,
        'real lost': load.realLost,
        'flood admitted / cap': `${load.floodAdmitted} / ${load.floodCap}`,
      });
      if (load.realRefused || load.realLost || load.floodAdmitted !== load.floodCap || load.floodSlots !== 1) {
        for (const example of load.refusedExamples) console.log(`  refused: ${example}`);
        process.exitCode = 1;
      }
    }
  }
  for (const { owner } of databases) await owner.end();
  console.log(
    `\nLaunch day alternately, before ${before} and after (every migration); ${CONNECTIONS} connections, ` +
      `11,400 real signups from 1,000 networks and ${FLOOD_ATTEMPTS} flood attempts a round; fsync on.`,
  );
  console.table(table);
  const median = (label: string) => {
    const rates = table
      .filter((row) => row.migrations === label)
      .map((row) => Number(row['signups accepted / s']))
      .sort((a, b) => a - b);
    const middle = rates.length / 2;
    return Number.isInteger(middle) ? Math.round((rates[middle - 1] + rates[middle]) / 2) : rates[Math.floor(middle)];
  };
  console.log(
    `Median accepted / s: before ${median('before')}, after ${median('after')} (${(median('after') / median('before')).toFixed(2)} ×).`,
  );
  if (process.exitCode)
    console.error('\nWRONG: a real signup was refused or lost, or a flood was not held to its cap.');
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
      `insert into public.waiting_list (email) select 'bulk-' || g || '@example.com' from generate_series(1, $1::int) g`,
      [BULK_ROWS],
    );
    await owner.query('vacuum analyze public.waiting_list');
    const loadSeconds = (performance.now() - loading) / 1000;
    await settle(info);

    figures.push(await measure(api, 'full', '1,000,000'));
    await api.end();
    await owner.end();

    console.log(
      `PostgreSQL ${server.version}, ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
        `fsync on; pg_cron ${cluster.cron ? 'loaded' : 'absent'}; Unix socket.`,
    );
    console.log('Single connection:');
    console.log('Each request: BEGIN, set_config (role anon, claims, headers), INSERT, COMMIT — as PostgREST runs it.');
    console.log(
      `${INSERTS} signups and ${DUPLICATES} duplicates per row count; 1,000,000 rows bulk-loaded in ${loadSeconds.toFixed(1)} s.\n`,
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

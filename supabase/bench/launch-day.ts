/**
 * bench:db's launch-day load (supabase/bench/db.ts): 32 connections, 11,400 real signups from
 * 1,000 networks mixed with one network flooding, and the before/after comparison of one migration
 * on that load alone (`-- --before <migration>`).
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseError, type Client } from 'pg';
import { insertEmail } from '../harness/api-request';
import type { Cluster } from '../harness/cluster';
import { connect, createEmptyDatabase, createSupabaseDatabase, type ConnectionInfo } from '../harness/database';
import { migrate, migrationFiles } from '../harness/migrations';
import { sealList } from '../harness/sealed';

/** The latency at percentile `p` (0.5: the median) of `sorted`, in ms to the hundredth. */
export const percentileMs = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 100) / 100;

/** One request of the launch-day load. */
type Signup = { email: string; clientIp: string; flood: boolean };

export const CONNECTIONS = 32;
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
    for (let i = 0; i < count; i += 1) {
      signups.push({ email: `launch-${round ? `${round}-` : ''}${signups.length}@example.com`, clientIp, flood });
    }
  };
  // Round 0 is the classic launch day; later rounds (--before) use networks of their own.
  for (let n = 0; n < 690; n += 1) add(`203.${round}.${113 + (n >> 8)}.${n & 255}`, 10);
  for (let n = 0; n < 10; n += 1) add(`192.${round}.2.${n + 1}`, 150);
  for (let site = 0; site < 30; site += 1) {
    for (let line = 0; line < 10; line += 1) {
      add(
        `2001:db8:${(round * 256 + site).toString(16)}:${line.toString(16)}::${(site * 10 + line + 1).toString(16)}`,
        10,
      );
    }
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
    `select extract(epoch from
       date_bin('10 minutes', now(), timestamptz '2000-01-01 00:00:00+00') + interval '10 minutes' - now()) as left`,
  );
  const left = Number(rows[0].left);
  if (left < 120) {
    console.log(`Waiting ${Math.ceil(left)} s for the next 10-minute slot, so the load runs within one.`);
    await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
  }
}

export async function launchDayLoad(info: ConnectionInfo, owner: Client, round = 0) {
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
          if (!signup.flood) {
            realRefused.push(`${signup.email} from ${signup.clientIp}: ${error.code} ${error.message}`);
          }
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
  return {
    requests: signups.length,
    realSignups: real.length,
    networks: 1_001,
    seconds: Math.round(seconds * 10) / 10,
    acceptedPerSecond: Math.round((listed[0].n + floodAdmitted) / seconds),
    p50ms: percentileMs(latencies, 0.5),
    p95ms: percentileMs(latencies, 0.95),
    p99ms: percentileMs(latencies, 0.99),
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
export async function compareLaunchDays(cluster: Cluster, before: string, rounds: number) {
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
  const ratio = (median('after') / median('before')).toFixed(2);
  console.log(`Median accepted / s: before ${median('before')}, after ${median('after')} (${ratio} ×).`);
  if (process.exitCode) {
    console.error('\nWRONG: a real signup was refused or lost, or a flood was not held to its cap.');
  }
}

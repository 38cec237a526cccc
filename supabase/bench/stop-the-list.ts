/**
 * npm run bench:stop — what it takes to stop the list: for each way we know, the requests and
 * networks one attacker must spend, at the shipped limits, before a visitor from a network never
 * seen before is refused (429), and the minutes it takes at the rate the database answered here.
 * Its own throwaway PostgreSQL (fsync off: requests, not disk, are what is counted), the list
 * sealed as after `waitlist keys init`, 8 connections as PostgREST's. supabase/security.md,
 * "What it takes to stop or read the list", holds the figures; run it on an older commit's
 * migrations (copy this file and attack.ts there) for the "before" column.
 *
 *   npm run bench:stop                 every way
 *   npm run bench:stop -- fill dupes   only those (slot = slot4 + slot48, day, fill, dupes)
 *
 * The guard's clock is stopped inside one 10-minute slot (or walked through a day's slots), as the
 * db tests do; "minutes" is the wall time at this machine's rate plus, for a day's limits, the
 * slots the per-network limits make the attacker wait through.
 */
import { startCluster } from '../harness/cluster';
import { connect, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase } from '../harness/migrations';
import { sealList } from '../harness/sealed';
import { attack, fresh, progress, range, setClock, type Result } from './attack';

const CONNECTIONS = 8;
const LISTED = 'taken@example.com';

/** A /48's 3,200 signups, its limit per 10 minutes: 200 (the /64 limit) from each of its first 16 /64s. */
const signupsFrom48 = (group: number) =>
  range(3200).map((i) => ({
    email: fresh(),
    context: {
      clientIp: `2001:db8:${group.toString(16)}:${Math.floor(i / 200).toString(16)}::${((i % 200) + 1).toString(16)}`,
    },
  }));

/** 'all' per 10 minutes, with signups: IPv4 addresses at 200 each, or IPv6 /48s at 3,200 (16 /64s × 200). */
function* slotSignups(per: 'ipv4' | 'ipv6/48') {
  for (let n = 0; n < 400; n += 1) {
    const batch =
      per === 'ipv4'
        ? range(200).map(() => ({ email: fresh(), context: { clientIp: `10.${1 + (n >> 8)}.${n & 255}.1` } }))
        : signupsFrom48(0x1000 + n);
    yield { batch, networks: 1 };
  }
}

async function main() {
  const ways = new Set(process.argv.slice(2));
  const run = (way: string) => ways.size === 0 || ways.has(way);
  const cluster = await startCluster();
  const stopOnSignal = () => void cluster.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const results: Result[] = [];
  try {
    const info: ConnectionInfo = await createWaitlistDatabase(cluster);
    const owner = await connect(info, 'postgres');
    await sealList(owner);
    const clients = await Promise.all(range(CONNECTIONS).map(() => connect(info, 'authenticator')));
    // Each way in a day of its own, far in the future (pg_cron's cleanup leaves those counters alone).
    let day = 0;
    const newDay = async () => {
      day += 1;
      await owner.query('delete from private.signup_counts');
      const start = new Date(Date.UTC(2099, 0, day, 10, 0, 0));
      await setClock(owner, start);
      return start;
    };

    if (run('slot') || run('slot4')) {
      await newDay();
      results.push(
        await attack(
          'signups fill all per 10 minutes, from IPv4 addresses',
          clients,
          slotSignups('ipv4'),
          (n) => `${n} IPv4`,
          'until the slot ends (at most 10 min); again each slot',
        ),
      );
    }
    if (run('slot') || run('slot48')) {
      await newDay();
      results.push(
        await attack(
          'signups fill all per 10 minutes, from IPv6 /48s',
          clients,
          slotSignups('ipv6/48'),
          (n) => `${n} /48`,
          'until the slot ends (at most 10 min); again each slot',
        ),
      );
    }

    if (run('day')) {
      // 'all' per day, with signups: /48s at their 3,200 per slot, through the day's slots until refused.
      const start = await newDay();
      const perSlot = 7; // /48s: 7 × 3,200 = 22,400 per slot, under 'all' per 10 minutes
      function* daySignups() {
        for (let slot = 0; slot < 20; slot += 1) {
          const at = new Date(start.getTime() + slot * 600_000);
          yield {
            before: () => setClock(owner, at),
            networks: slot === 0 ? perSlot : 0,
            batch: range(perSlot).flatMap((n) => signupsFrom48(0x2000 + n)),
          };
        }
      }
      const result = await attack(
        'signups fill all per day, from IPv6 /48s',
        clients,
        daySignups(),
        (n) => `${n} /48`,
        'until 00:00 UTC',
      );
      const { rows } = await owner.query(
        `select extract(epoch from private.signup_clock() - $1::timestamptz) / 60 as minutes`,
        [start],
      );
      result.note =
        `${Math.round(Number(rows[0].minutes)) + 10} min of slots at the least (each /48 3,200 per 10 min), ` +
        'then until 00:00 UTC';
      results.push(result);
    }

    if (run('dupes')) {
      // The review's way: a /48's 300 /64s fill the duplicate table, then one IPv4 address asks
      // about a listed address until 'all' is spent.
      await newDay();
      function* dupes() {
        yield {
          networks: 0,
          batch: range(300).map((i) => ({
            email: LISTED,
            context: { clientIp: `2001:db8:ffff:${i.toString(16)}::1` },
          })),
        };
        for (let n = 0; n < 70; n += 1) {
          yield {
            networks: n === 0 ? 2 : 0,
            batch: range(500).map(() => ({ email: LISTED, context: { clientIp: '198.51.100.66' } })),
          };
        }
      }
      results.push(
        await attack(
          'duplicates: a /48 fills the table, one IPv4 address spends all',
          clients,
          dupes(),
          () => '1 /48 + 1 IPv4',
          'until the slot ends; again each slot',
        ),
      );
    }

    if (run('fill')) {
      // Fill the networks' duplicate table from distinct IPv4 addresses (one
      // duplicate each), until a new network finds no free entry and the shared counter is spent.
      await newDay();
      // IPv4 addresses in the shared counter are refused once it holds 200 (their limit); an IPv6
      // /48 there, at 3,200 (its own): a /48 of the attacker's then adds duplicates (16 /64s × 200).
      function* fill() {
        progress.halfRefused = false;
        for (let n = 0; n < 100 && !progress.halfRefused; n += 1) {
          yield {
            networks: 10,
            batch: range(10).map((i) => ({
              email: LISTED,
              context: { clientIp: `10.200.${(n * 10 + i) >> 8}.${(n * 10 + i) & 255}` },
            })),
          };
        }
        for (let line = 0; line < 17; line += 1) {
          yield {
            networks: line === 0 ? 1 : 0,
            batch: range(200).map(() => ({
              email: LISTED,
              context: { clientIp: `2001:db8:eeee:${line.toString(16)}::1` },
            })),
          };
        }
      }
      results.push(
        await attack(
          'duplicates: fill the networks table, spend the shared counter',
          clients,
          fill(),
          (n) => `${n} networks (IPv4 addresses, then one /48)`,
          'new networks only, until the slot ends; networks with an entry of their own keep signing up',
          20,
        ),
      );
    }

    await Promise.all(clients.map((client) => client.end()));
    await owner.end();
  } finally {
    await cluster.stop();
  }
  console.table(results);
}

await main();

/**
 * The abuse guard's knobs, as the owner turns them: the documented one-statement limit change,
 * and the guard's clock (private.signup_clock), replaced so tests walk through 10-minute slots and
 * UTC days without waiting or racing a slot boundary.
 */
import type { Client } from 'pg';
import { afterEach } from 'vitest';

export type Scope = 'ipv4' | 'ipv6/64' | 'ipv6/48' | 'unknown' | 'all';
export type Window = 'per_10_minutes' | 'per_day';

export const SHIPPED_LIMITS = [
  { scope: 'all', per_10_minutes: 30000, per_day: 100000 },
  { scope: 'ipv4', per_10_minutes: 200, per_day: 1000 },
  { scope: 'ipv6/48', per_10_minutes: 3200, per_day: 16000 },
  { scope: 'ipv6/64', per_10_minutes: 200, per_day: 1000 },
  { scope: 'unknown', per_10_minutes: 10000, per_day: 1440000 },
];

/** The statement supabase/security.md documents, e.g. update ... set per_10_minutes = 300 where scope = 'ipv4'. */
export async function setLimit(owner: Client, scope: Scope, window: Window, value: number) {
  await owner.query(`update private.signup_limits set ${window} = $1 where scope = $2`, [value, scope]);
}

export async function restoreShippedLimits(owner: Client) {
  for (const { scope, per_10_minutes, per_day } of SHIPPED_LIMITS) {
    await owner.query('update private.signup_limits set per_10_minutes = $1, per_day = $2 where scope = $3', [
      per_10_minutes,
      per_day,
      scope,
    ]);
  }
}

/** After each test of the file, the shipped limits and the real clock again. */
export const restoreGuardAfterEach = (db: { owner: Client }) =>
  afterEach(async () => {
    await restoreShippedLimits(db.owner);
    await restoreClock(db.owner);
  });

/**
 * Stops the guard's clock at `at` (an ISO time far in the future, so pg_cron's cleanup leaves its
 * counters alone).
 */
export async function setClock(owner: Client, at: string) {
  await owner.query(
    `create or replace function private.signup_clock() returns timestamptz language sql stable
     set search_path = '' as $$ select timestamptz '${new Date(at).toISOString()}' $$`,
  );
  // What the upkeep job does for the real clock: the day's secret exists before any request.
  await owner.query(`select private.signup_secret(date_trunc('day', $1::timestamptz, 'UTC'))`, [at]);
}

/** Back to the request's own time, and away with what the stopped clock counted. */
export async function restoreClock(owner: Client) {
  await owner.query(
    `create or replace function private.signup_clock() returns timestamptz language sql stable
     set search_path = '' as $$ select now() $$`,
  );
  await owner.query(`delete from private.signup_counts where slot_end > now() + interval '1 day'`);
  await owner.query(`delete from private.signup_secrets where day_end > now() + interval '1 day'`);
}

/** Signups counted for `network` (e.g. '203.0.113.7/32', 'unknown') in the slot containing the clock. */
export async function countsOf(owner: Client, network: string) {
  const { rows } = await owner.query(
    `select extract(epoch from slot_end - slot_start)::int as seconds, signups
     from private.signup_counts
     where network = private.network_hash($1)
       and private.signup_clock() >= slot_start and private.signup_clock() < slot_end`,
    [network],
  );
  return {
    tenMinutes: rows.find((row) => row.seconds === 600)?.signups ?? 0,
    day: rows.find((row) => row.seconds === 86400)?.signups ?? 0,
  };
}

/**
 * Sets what `network` has counted in the clock's slot and day, as that many signups would have
 * left it: a test reaches a limit without sending the requests.
 */
export async function setCounts(owner: Client, network: string, counts: { tenMinutes: number; day: number }) {
  await owner.query(
    `with clock as (select private.signup_clock() as at),
     windows as (
       select date_bin('10 minutes', at, timestamptz '2000-01-01 00:00:00+00') as start,
              interval '10 minutes' as length, $2::int as n
       from clock
       union all select date_trunc('day', at, 'UTC'), interval '24 hours', $3::int from clock)
     insert into private.signup_counts as c (network, slot_start, slot_end, signups)
     select private.network_hash($1), start, start + length, n from windows
     on conflict on constraint signup_counts_pkey do update set signups = excluded.signups`,
    [network, counts.tenMinutes, counts.day],
  );
}

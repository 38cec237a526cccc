/**
 * No one network can stop the list (supabase/security.md "What it takes to stop or read
 * the list"): duplicates never spend the signups' 'all' budget; a network's duplicates stop at its
 * own limit whatever the counter tables hold, per 10 minutes and per day; a network without a
 * counter of its own is counted with the others in its position, never with anybody else, and a
 * /64 without one is limited through its /48 alone, so only a /48's whole budget locks its /64s
 * out; a malformed request writes nothing; a spent 'all' still answers health's probe 429.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, refusal, type RequestContext } from '../harness/api-request';
import { SUPERUSER } from '../harness/cluster';
import { connect } from '../harness/database';
import { answerOf, CREATED, type HttpAnswer } from '../harness/postgrest-answer';
import { restoreGuardAfterEach, setClock, setLimit } from './guard';
import { useDatabase } from './use-database';
import { sharedDatabase } from './shared-server';

const db = useDatabase();
const LISTED = 'taken@example.com';
let tag = 0;
const email = () => `no-stop-${(tag += 1)}@example.com`;

const answer = (address: string, context: RequestContext) => answerOf(insertEmail(db.api, address, context));
/** The answer's error code; 'added' for CREATED. */
const code = (outcome: HttpAnswer) => outcome.body?.code ?? 'added';

/** How many of each answer `count` duplicates from `context` got, e.g. { '23505': 20, PT429: 5 }. */
async function duplicates(count: number, context: (i: number) => RequestContext) {
  const tally: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) {
    const c = code(await answer(LISTED, context(i)));
    tally[c] = (tally[c] ?? 0) + 1;
  }
  return tally;
}

/**
 * Every free entry of every duplicate counter table taken by another network in the current
 * windows, as the owner could set them: `fill` makes the tables hold whatever an attacker could
 * make them hold, without sending the requests.
 */
async function fillCounterTables(tables: 'every table' | 'the /64 table' = 'every table') {
  const names =
    tables === 'every table'
      ? '^signup_duplicates_(networks_)?(slot|day)_[0-9]+$'
      : '^signup_duplicates_(slot|day)_[0-9]+$';
  await db.owner.query(
    `
    do $$
    declare
      s record;
      seconds bigint;
      window_bits bigint;
      value bigint;
    begin
      for s in select c.oid::regclass as entry, substring(c.relname from '_(slot|day)_[0-9]+$') as kind
               from pg_class c
               where c.relnamespace = 'private'::regnamespace and c.relkind = 'S'
                 and c.relname ~ 'NAMES' loop
        seconds := case s.kind when 'slot' then 600 else 86400 end;
        window_bits := (extract(epoch from private.signup_clock())::bigint / seconds) % 131072;
        value := coalesce(pg_sequence_last_value(s.entry), 0);
        if value = 0 or (value >> 16) & 131071 <> window_bits then
          perform setval(s.entry, ((1 + floor(random() * 1073741822)::bigint) << 33) | (window_bits << 16) | 1);
        end if;
      end loop;
    end;
    $$`.replace('NAMES', names),
  );
}

restoreGuardAfterEach(db);

describe("duplicates never spend the signups' all budget", () => {
  it("the review's attack, scaled down: a /48's /64s past the /64 table, two IPv4s; a new visitor joins", async () => {
    await setClock(db.owner, '2099-09-01T10:00:00Z');
    // The shipped limits scaled down by 10 for each network (a /48's 16 times a /64's); 'all' at
    // exactly what the duplicates below add up to (40 + 25 + 25), standing in for 30,000.
    for (const scope of ['ipv4', 'ipv6/64'] as const) {
      await setLimit(db.owner, scope, 'per_10_minutes', 20);
      await setLimit(db.owner, scope, 'per_day', 100);
    }
    await setLimit(db.owner, 'ipv6/48', 'per_10_minutes', 16 * 20);
    await setLimit(db.owner, 'ipv6/48', 'per_day', 16 * 100);
    await setLimit(db.owner, 'all', 'per_10_minutes', 90);

    // The /64 table full, as more /64s than its 128 entries would leave it: 40 /64s of one /48,
    // one duplicate each, more than one /64's 20, are limited through their /48 alone (320).
    await fillCounterTables('the /64 table');
    expect(await duplicates(40, (i) => ({ clientIp: `2001:db8:fe:${i.toString(16)}::1` }))).toEqual({ '23505': 40 });
    // One IPv4 address, then another, 25 duplicates each: its limit of 20, then 429, table or no table.
    expect(await duplicates(25, () => ({ clientIp: '198.51.100.201' }))).toEqual({ '23505': 20, PT429: 5 });
    expect(await duplicates(25, () => ({ clientIp: '198.51.100.202' }))).toEqual({ '23505': 20, PT429: 5 });

    // Nobody else is refused for them: a new visitor from another IPv4 address, another /48, and a
    // /64 of another /48 whose own /64 entries are as full as the flooded /48's.
    expect(await answer(email(), { clientIp: '198.51.100.203' })).toEqual(CREATED);
    expect(await answer(email(), { clientIp: '2001:db8:fd::1' })).toEqual(CREATED);
    expect(await answer(LISTED, { clientIp: '2001:db8:fc:1::1' })).toEqual(answers.duplicate);
    expect(await answer(email(), { clientIp: '2001:db8:fc:2::1' })).toEqual(CREATED);
  });

  it("count only against each network: 'all' admits its signups after any number of duplicates", async () => {
    await setClock(db.owner, '2099-09-02T10:00:00Z');
    await setLimit(db.owner, 'all', 'per_10_minutes', 3);
    expect(await duplicates(10, (i) => ({ clientIp: `10.97.0.${i + 1}` }))).toEqual({ '23505': 10 });
    for (let i = 0; i < 3; i += 1) expect(await answer(email(), { clientIp: `10.97.1.${i + 1}` })).toEqual(CREATED);
    expect(await answer(email(), { clientIp: '10.97.1.9' })).toEqual(answers.overSignupLimit);
  });
});

describe("one network's duplicates stop at its limit whatever the counter tables hold", () => {
  it('with an entry of its own, or counted with every network that found none; nobody else is refused', async () => {
    await setClock(db.owner, '2099-09-03T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 20);
    await setLimit(db.owner, 'ipv4', 'per_day', 25);
    const own = { clientIp: '203.0.113.210' };
    expect(await duplicates(3, () => own)).toEqual({ '23505': 3 }); // takes an entry of its own
    await fillCounterTables();

    const crowded = { clientIp: '203.0.113.211' }; // finds no free entry: the shared counter
    expect(await duplicates(30, () => crowded)).toEqual({ '23505': 20, PT429: 10 });
    // Another network in the same position shares that counter: it fails closed.
    expect(code(await answer(email(), { clientIp: '203.0.113.212' }))).toBe('PT429');
    // A network with an entry of its own is not refused for them: its own 20, no more.
    expect(await duplicates(20, () => own)).toEqual({ '23505': 17, PT429: 3 });

    // The next slot: 10-minute counts start over, the day's hold (25 a day).
    await setClock(db.owner, '2099-09-03T10:10:00Z');
    await fillCounterTables();
    expect(await duplicates(10, () => crowded)).toEqual({ '23505': 5, PT429: 5 });
    expect(await duplicates(10, () => own)).toEqual({ '23505': 5, PT429: 5 });
  });

  it('per day as per 10 minutes, for a /64 and its /48 too', async () => {
    await setClock(db.owner, '2099-09-04T10:00:00Z');
    await setLimit(db.owner, 'ipv6/64', 'per_day', 6);
    await setLimit(db.owner, 'ipv6/48', 'per_day', 10);
    // A /64 with an entry of its own: its own limit.
    expect(await duplicates(8, () => ({ clientIp: '2001:db8:aa:1::1' }))).toEqual({ '23505': 6, PT429: 2 });
    await fillCounterTables('the /64 table');
    // A /64 that finds no entry: limited through its /48 alone.
    expect(await duplicates(12, () => ({ clientIp: '2001:db8:ab:1::1' }))).toEqual({ '23505': 10, PT429: 2 });
    await setClock(db.owner, '2099-09-04T15:00:00Z');
    await fillCounterTables('the /64 table');
    expect(await duplicates(2, () => ({ clientIp: '2001:db8:ab:2::1' }))).toEqual({ PT429: 2 });
    // Another /48 is untouched.
    expect(await duplicates(2, () => ({ clientIp: '2001:db8:ac:1::1' }))).toEqual({ '23505': 2 });
  });
});

describe('a /64 without an entry of its own is limited through its /48: no cheaper lockout of a shared /48', () => {
  it("takes a /48's whole budget, 16 times a /64's, to lock its /64s out; another /48's /64s keep theirs", async () => {
    await setClock(db.owner, '2099-09-08T10:00:00Z');
    const PER_64 = 2;
    await setLimit(db.owner, 'ipv6/64', 'per_10_minutes', PER_64);
    await setLimit(db.owner, 'ipv6/48', 'per_10_minutes', 16 * PER_64);
    // The /64 table full; 31 /64s, one duplicate each: all but one of the /48's budget.
    await fillCounterTables('the /64 table');
    const crowded = (i: number) => ({ clientIp: `2001:db8:49:${i.toString(16)}::1` });
    expect(await duplicates(16 * PER_64 - 1, crowded)).toEqual({ '23505': 31 });
    expect(await answer(email(), { clientIp: '2001:db8:49:ff00::1' })).toEqual(CREATED); // the /48's 32nd
    expect(await answer(email(), { clientIp: '2001:db8:49:ff01::1' })).toEqual(answers.overSignupLimit);
    expect(await duplicates(2, (i) => crowded(i + 200))).toEqual({ PT429: 2 });
    // Another /48's /64s find the /64 table full: they are held to their own /48's budget only.
    expect(await duplicates(8, (i) => ({ clientIp: `2001:db8:4a:${i.toString(16)}::1` }))).toEqual({ '23505': 8 });
    expect(await answer(email(), { clientIp: '2001:db8:4a:ff00::1' })).toEqual(CREATED);
  });
});

describe('the order of a request', () => {
  it("a spent 'all' answers health's probe 429, not 400: the limits are compared before the address", async () => {
    const SITE = 'https://coming-soon.example';
    await setClock(db.owner, '2099-09-05T10:00:00Z');
    await db.owner.query('insert into private.allowed_origins values ($1)', [SITE]);
    try {
      const probe = () => answer(`waitlist-health-check-${randomUUID()}`, { headers: { origin: SITE } });
      expect(code(await probe())).toBe('23514');
      await setLimit(db.owner, 'all', 'per_10_minutes', 2);
      await answer(email(), { clientIp: '192.0.2.221' });
      await answer(email(), { clientIp: '192.0.2.222' });
      expect(await probe()).toEqual(answers.overSignupLimit);
      // A foreign origin is still refused first.
      expect(code(await answer('not-an-address', { headers: { origin: 'https://evil.example' } }))).toBe('PT403');
    } finally {
      await db.owner.query('delete from private.allowed_origins');
    }
  });

  const vacuumsRunning = `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`;
  it('a malformed address writes no WAL of its own: as many bytes as a request refused before any read', async () => {
    await setClock(db.owner, '2099-09-06T10:00:00Z');
    await db.owner.query(`insert into private.allowed_origins values ('https://coming-soon.example')`);
    // The server's own database, where pg_cron runs: WAL is counted for the whole server.
    const superuser = await connect(sharedDatabase(), SUPERUSER);
    const CONNECTIONS = 4;
    const PER_BLOCK = 250; // per connection: 1,000 requests a block
    const ROUNDS = 3; // 3,000 malformed requests and 3,000 refused ones (fewer let a checkpoint's page images decide)
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(db.info, 'authenticator')));
    const wal = async () =>
      BigInt((await superuser.query(`select pg_current_wal_lsn() - '0/0' as bytes`)).rows[0].bytes);
    const block = async (origin: string, address: string) => {
      const before = await wal();
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < PER_BLOCK; i += 1) {
            const error = await refusal(
              insertEmail(client, address, { clientIp: '203.0.113.230', headers: { origin } }),
            );
            expect(error.code).toBe(origin.includes('evil') ? 'PGRST' : '23514');
          }
        }),
      );
      return Number((await wal()) - before);
    };
    // Nothing else writes meanwhile: the waitlist's pg_cron jobs stopped, autovacuum off.
    await superuser.query(`update cron.job set active = false where jobname like 'waitlist-%'`);
    await superuser.query(`alter system set autovacuum = off`);
    await superuser.query(`select pg_reload_conf()`);
    // Vacuums already started (in the databases of the files before this one) finish first.
    await expect.poll(async () => (await superuser.query(vacuumsRunning)).rows[0].n, { timeout: 60_000 }).toBe(0);
    try {
      const totals = { malformed: 0, refused: 0 };
      for (let round = 0; round < ROUNDS; round += 1) {
        totals.malformed += await block('https://coming-soon.example', 'no-at-sign.example.com');
        totals.refused += await block('https://evil.example', 'no-at-sign.example.com');
      }
      const requests = ROUNDS * CONNECTIONS * PER_BLOCK;
      const perRequest = { malformed: totals.malformed / requests, refused: totals.refused / requests };
      console.log(`WAL per request over ${requests} each:`, perRequest);
      expect(perRequest.malformed).toBeLessThanOrEqual(perRequest.refused + 4);
    } finally {
      await superuser.query(`alter system reset autovacuum`);
      await superuser.query(`select pg_reload_conf()`);
      await superuser.query(`update cron.job set active = true where jobname like 'waitlist-%'`);
      await db.owner.query('delete from private.allowed_origins');
      await Promise.all(clients.map((client) => client.end()));
      await superuser.end();
    }
  }, 600_000);
});

import { DatabaseError } from 'pg';
import { describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { enterRequest, insertEmail, refusal, type RequestContext } from '../harness/api-request';
import { connect } from '../harness/database';
import { countsOf, restoreGuardAfterEach, setClock, setCounts, setLimit, SHIPPED_LIMITS } from './guard';
import { postgrestAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();

let tag = 0;
const nextEmail = () => `guard-${(tag += 1)}@example.com`;
/** Signs up `count` new addresses, one request each, all from `context`. */
async function signUps(count: number, context: RequestContext) {
  for (let i = 0; i < count; i += 1) await insertEmail(db.api, nextEmail(), context);
}

function expectOverLimit(error: DatabaseError) {
  expect(error.code).toBe('PGRST');
  expect(JSON.parse(error.message)).toEqual({
    code: 'PT429',
    message: 'Too many signups from this network. Try again in a few minutes.',
    details: null,
    hint: null,
  });
  expect(JSON.parse(error.detail ?? '')).toEqual({ status: 429, status_text: 'Too Many Requests', headers: {} });
}
const overLimit = async (email: string, context: RequestContext) =>
  expectOverLimit(await refusal(insertEmail(db.api, email, context)));

const listCount = async () => (await db.owner.query('select count(*)::int as n from public.waiting_list')).rows[0].n;

restoreGuardAfterEach(db);

describe('the abuse guard: limits are data', () => {
  it('ships 200 per 10 minutes and 1,000 per UTC day a network; 10,000 per 10 minutes with no address', async () => {
    const { rows } = await db.owner.query(
      'select scope, per_10_minutes, per_day from private.signup_limits order by scope',
    );
    expect(rows).toEqual(SHIPPED_LIMITS);
  });

  it('admits 200 from one address in 10 minutes (shipped), refuses the 201st, admits another address', async () => {
    await setClock(db.owner, '2099-01-01T10:00:00Z');
    const office = { clientIp: '203.0.113.7' };
    await signUps(1, office);
    await setCounts(db.owner, '203.0.113.7/32', { tenMinutes: 199, day: 199 }); // as 198 more would
    await signUps(1, office); // the 200th
    const before = await listCount();
    await overLimit(nextEmail(), office);
    expect(await listCount()).toBe(before); // a refusal touches nothing on the list
    await signUps(1, { clientIp: '203.0.113.8' });
    expect(await countsOf(db.owner, '203.0.113.7/32')).toEqual({ tenMinutes: 200, day: 200 });
  });

  it('admits 200 again in the next 10-minute slot, refuses the 1,001st of the UTC day (shipped limits)', async () => {
    const office = { clientIp: '198.51.100.20' };
    // Four full slots (23:00 to 23:30), as 800 signups would have left them.
    await setClock(db.owner, '2099-01-02T23:30:00Z');
    await setCounts(db.owner, '198.51.100.20/32', { tenMinutes: 200, day: 800 });
    await overLimit(nextEmail(), office);
    await setClock(db.owner, '2099-01-02T23:40:00Z');
    await signUps(1, office); // the next slot admits again
    await setCounts(db.owner, '198.51.100.20/32', { tenMinutes: 199, day: 999 });
    await signUps(1, office); // its 200th, the day's 1,000th
    await setClock(db.owner, '2099-01-02T23:50:00Z');
    await overLimit(nextEmail(), office); // the 1,001st of the day, the first of its slot
    expect(await countsOf(db.owner, '198.51.100.20/32')).toEqual({ tenMinutes: 0, day: 1000 });
    await setClock(db.owner, '2099-01-03T00:00:00Z');
    await signUps(1, office); // a new UTC day
  });

  it('applies a limit changed by the documented SQL statement to the very next signup', async () => {
    await setClock(db.owner, '2099-01-04T10:00:00Z');
    const context = { clientIp: '203.0.113.30' };
    await signUps(5, context);
    await db.owner.query(`update private.signup_limits set per_10_minutes = 5 where scope = 'ipv4'`);
    await overLimit(nextEmail(), context);
    await db.owner.query(`update private.signup_limits set per_10_minutes = 6 where scope = 'ipv4'`);
    await signUps(1, context);
    await db.owner.query(`update private.signup_limits set per_day = 6 where scope = 'ipv4'`);
    await db.owner.query(`update private.signup_limits set per_10_minutes = 300 where scope = 'ipv4'`);
    await overLimit(nextEmail(), context);
  });
});

describe('the abuse guard: which network a request counts against', () => {
  it('trusts cf-connecting-ip, never the client-written x-forwarded-for or x-real-ip', async () => {
    await setClock(db.owner, '2099-01-05T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 5);
    const forged = (i: number): RequestContext => ({
      clientIp: '198.51.100.9',
      headers: { 'x-forwarded-for': `192.0.2.${i}, 198.51.100.9`, 'x-real-ip': `192.0.2.${i}` },
    });
    for (let i = 0; i < 5; i += 1) await insertEmail(db.api, nextEmail(), forged(i));
    await overLimit(nextEmail(), forged(5));
  });

  it('counts IPv6 per /64 and per /48, both', async () => {
    await setClock(db.owner, '2099-01-06T10:00:00Z');
    await setLimit(db.owner, 'ipv6/64', 'per_10_minutes', 3);
    await setLimit(db.owner, 'ipv6/48', 'per_10_minutes', 5);
    await signUps(2, { clientIp: '2001:db8:1:2::1' });
    await signUps(1, { clientIp: '2001:db8:1:2:ffff::9' });
    await overLimit(nextEmail(), { clientIp: '2001:db8:1:2::abcd' }); // 4th of the /64
    await signUps(2, { clientIp: '2001:db8:1:3::1' }); // another /64 of the same /48: 5 in the /48
    await overLimit(nextEmail(), { clientIp: '2001:db8:1:4::1' }); // a fresh /64, but the /48 is full
    await signUps(1, { clientIp: '2001:db8:2::1' }); // another /48
    expect(await countsOf(db.owner, '2001:db8:1::/48')).toEqual({ tenMinutes: 5, day: 5 });
    expect(await countsOf(db.owner, '2001:db8:1:2::/64')).toEqual({ tenMinutes: 3, day: 3 });
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries, not as ::/64', async () => {
    await setClock(db.owner, '2099-01-07T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 3);
    await signUps(2, { clientIp: '::ffff:203.0.113.9' });
    await signUps(1, { clientIp: '203.0.113.9' });
    await overLimit(nextEmail(), { clientIp: '::ffff:203.0.113.9' });
    await overLimit(nextEmail(), { clientIp: '203.0.113.9' });
    await signUps(3, { clientIp: '::ffff:203.0.113.10' });
    expect(await countsOf(db.owner, '203.0.113.9/32')).toEqual({ tenMinutes: 3, day: 3 });
    expect(await countsOf(db.owner, '::/64')).toEqual({ tenMinutes: 0, day: 0 });
  });

  it('counts a 6to4 or Teredo address as its IPv4 client; the rest of 2001::/16 per /64 and /48', async () => {
    await setClock(db.owner, '2099-01-08T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 3);
    // 6to4: bits 16-47 are the IPv4 address, c000:0204 = 192.0.2.4, whatever follows.
    await signUps(1, { clientIp: '192.0.2.4' });
    await signUps(1, { clientIp: '2002:c000:204::1' });
    await signUps(1, { clientIp: '2002:c000:204:7::9' });
    await overLimit(nextEmail(), { clientIp: '2002:c000:204::1' });
    await overLimit(nextEmail(), { clientIp: '192.0.2.4' });
    // Teredo (2001:0000::/32): the client's public address is the last 32 bits inverted,
    // 3fff:fdd2 = ~c000:022d = 192.0.2.45, whichever Teredo server (bits 32-63) relays it.
    await signUps(2, { clientIp: '2001:0:4136:e378:8000:63bf:3fff:fdd2' });
    await signUps(1, { clientIp: '2001:0:cb00:7101:8000:1234:3fff:fdd2' });
    await overLimit(nextEmail(), { clientIp: '192.0.2.45' });
    expect(await countsOf(db.owner, '192.0.2.4/32')).toEqual({ tenMinutes: 3, day: 3 });
    expect(await countsOf(db.owner, '192.0.2.45/32')).toEqual({ tenMinutes: 3, day: 3 });
    expect(await countsOf(db.owner, '2002:c000:204::/64')).toEqual({ tenMinutes: 0, day: 0 });
    expect(await countsOf(db.owner, '2001:0:4136:e378::/64')).toEqual({ tenMinutes: 0, day: 0 });
    // Not Teredo: 2001:db8::/32 and 2001:1::/32 carry the same last 32 bits and count per /64 and /48.
    for (const prefix of ['2001:db8:4136', '2001:1:4136']) {
      await signUps(1, { clientIp: `${prefix}:e378:8000:63bf:3fff:fdd2` });
      expect(await countsOf(db.owner, `${prefix}:e378::/64`)).toEqual({ tenMinutes: 1, day: 1 });
      expect(await countsOf(db.owner, `${prefix}::/48`)).toEqual({ tenMinutes: 1, day: 1 });
    }
  });

  it.each([
    ['no cf-connecting-ip', { clientIp: null }],
    ['an empty one', { clientIp: '' }],
    ['garbage', { clientIp: 'not-an-address' }],
    ['a list', { clientIp: '203.0.113.1, 203.0.113.2' }],
    ['a host name', { clientIp: 'localhost' }],
  ] as [string, RequestContext][])(
    'puts a request with %s in the unknown bucket, not a network',
    async (_, context) => {
      await setClock(db.owner, '2099-01-08T10:00:00Z');
      await signUps(1, context);
      expect(await countsOf(db.owner, 'unknown')).toEqual({ tenMinutes: 1, day: 1 });
    },
  );

  it('counts requests with no request.headers or no address in them as unknown; refuses unreadable ones', async () => {
    await setClock(db.owner, '2099-01-09T10:00:00Z');
    const insertWith = async (headers: string | null) => {
      await db.api.query('begin');
      try {
        await enterRequest(db.api, { clientIp: null });
        await db.api.query(`select set_config('request.headers', $1, true)`, [headers]);
        await db.api.query('insert into public.waiting_list (email) values ($1)', [nextEmail()]);
        await db.api.query('commit');
      } catch (error) {
        await db.api.query('rollback');
        throw error;
      }
    };
    for (const headers of [null, '', '[1,2]', '{"cf-connecting-ip": 42}']) await insertWith(headers);
    // Set but unreadable: refused (tests/unreadable-headers.test.ts), not counted.
    expect(postgrestAnswer(await refusal(insertWith('not json')))).toEqual(answers.unreadableHeaders);
    expect(await countsOf(db.owner, 'unknown')).toEqual({ tenMinutes: 4, day: 4 });
  });

  it('gives unknown 10,000 per 10 minutes (shipped), not 200: the 201st passes, the 10,001st does not', async () => {
    await setClock(db.owner, '2099-01-10T10:00:00Z');
    const crowd = { clientIp: null };
    await setCounts(db.owner, 'unknown', { tenMinutes: 200, day: 200 }); // all any one network may send
    await signUps(1, crowd);
    await setCounts(db.owner, 'unknown', { tenMinutes: 9999, day: 9999 });
    await signUps(1, crowd);
    await overLimit(nextEmail(), crowd);
  });
});

describe('the abuse guard under concurrency', () => {
  const LIMIT = 20;
  const CONNECTIONS = 8;
  const EACH = 10;

  async function race(isolation: 'read committed' | 'repeatable read' | 'serializable', retry: boolean) {
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(db.info, 'authenticator')));
    const context: RequestContext = { clientIp: '203.0.113.80', isolation };
    const outcomes = { admitted: 0, overLimit: 0, serialization: 0 };
    try {
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < EACH; i += 1) {
            const email = nextEmail();
            for (;;) {
              try {
                await insertEmail(client, email, context);
                outcomes.admitted += 1;
              } catch (error) {
                if (!(error instanceof DatabaseError)) throw error;
                if (error.code === '40001') {
                  outcomes.serialization += 1;
                  if (retry) continue;
                } else {
                  expectOverLimit(error);
                  outcomes.overLimit += 1;
                }
              }
              break;
            }
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    return outcomes;
  }

  it.each(['read committed', 'repeatable read', 'serializable'] as const)(
    'never admits more than the limit under %s, and refuses the rest with 429 or a serialization failure',
    async (isolation) => {
      await setClock(db.owner, '2099-01-11T10:00:00Z');
      await setLimit(db.owner, 'ipv4', 'per_10_minutes', LIMIT);
      const outcomes = await race(isolation, false);
      expect(outcomes.admitted).toBeLessThanOrEqual(LIMIT);
      expect(outcomes.admitted + outcomes.overLimit + outcomes.serialization).toBe(CONNECTIONS * EACH);
      expect(await countsOf(db.owner, '203.0.113.80/32')).toEqual({
        tenMinutes: outcomes.admitted,
        day: outcomes.admitted,
      });
      if (isolation === 'read committed') {
        expect(outcomes).toEqual({ admitted: LIMIT, overLimit: CONNECTIONS * EACH - LIMIT, serialization: 0 });
      }
    },
  );

  it.each(['repeatable read', 'serializable'] as const)(
    'admits exactly the limit under %s when clients retry serialization failures',
    async (isolation) => {
      await setClock(db.owner, '2099-01-12T10:00:00Z');
      await setLimit(db.owner, 'ipv4', 'per_10_minutes', LIMIT);
      const outcomes = await race(isolation, true);
      expect(outcomes.admitted).toBe(LIMIT);
      expect(outcomes.overLimit).toBe(CONNECTIONS * EACH - LIMIT);
    },
  );
});

describe('the abuse guard: what it keeps', () => {
  it('keeps counters per network per slot: no address, no time finer than 10 minutes', async () => {
    await setClock(db.owner, '2099-01-13T10:04:33Z');
    await signUps(3, { clientIp: '203.0.113.77' });
    await signUps(1, { clientIp: '2001:db8:77::1' });
    const { rows: columns } = await db.owner.query(
      `select table_name, column_name, data_type from information_schema.columns
       where table_schema = 'private' and table_name like 'signup%'
         and table_name <> 'signup_addresses' -- the list's own (address hashes and seals), not the guard's
       order by table_name, ordinal_position`,
    );
    expect(columns.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}`)).toEqual([
      'signup_counts.network bytea',
      'signup_counts.slot_start timestamp with time zone',
      'signup_counts.slot_end timestamp with time zone',
      'signup_counts.signups integer',
      'signup_limits.scope text',
      'signup_limits.per_10_minutes integer',
      'signup_limits.per_day integer',
      'signup_limits.applies_to text',
      'signup_secrets.day_start timestamp with time zone',
      'signup_secrets.day_end timestamp with time zone',
      'signup_secrets.secret bytea',
    ]);
    const { rows } = await db.owner.query(
      `select encode(network, 'hex') as network, slot_start, slot_end from private.signup_counts
       where slot_start >= '2099-01-13'`,
    );
    // The 10-minute slot and the day, for 203.0.113.77, 2001:db8:77::/48, its /64 and the 'all' shard.
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      expect(row.network).toMatch(/^[0-9a-f]{64}$/);
      expect(['2099-01-13T10:00:00.000Z', '2099-01-13T00:00:00.000Z']).toContain(row.slot_start.toISOString());
    }
    const dump = JSON.stringify((await db.owner.query(`select * from private.signup_counts`)).rows);
    expect(dump).not.toContain('203.0.113.77');
    expect(dump).not.toContain('2001:db8:77');
  });

  it('does not count malformed addresses (duplicates do count: duplicate-quota.test.ts)', async () => {
    await setClock(db.owner, '2099-01-14T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 3);
    const context = { clientIp: '203.0.113.60' };
    for (let i = 0; i < 5; i += 1) await refusal(insertEmail(db.api, 'not-an-email', context));
    await signUps(3, context);
    expect(await countsOf(db.owner, '203.0.113.60/32')).toEqual({ tenMinutes: 3, day: 3 });
  });

  it('leaves the owner alone: seeds and imports are not API signups', async () => {
    await setLimit(db.owner, 'unknown', 'per_10_minutes', 0);
    await db.owner.query(
      `insert into public.waiting_list (email) values ('import-1@example.com'), ('import-2@example.com')`,
    );
    expect(
      (
        await db.owner.query(
          `select count(*)::int as n from private.signup_addresses
           where address_hash in
             (private.address_hash('import-1@example.com'), private.address_hash('import-2@example.com'))`,
        )
      ).rows[0].n,
    ).toBe(2);
  });
});

import type { DatabaseError } from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { apiRequest, insertEmail, POSTGREST_INSERT, refusal, type RequestContext } from './api-request';
import { connect } from './database';
import { useDatabase } from './use-database';

const db = useDatabase();
const LIMIT = 20;

/** Signs up `count` new addresses named after `tag`, one request each, all from `context`. */
async function signUps(tag: string, count: number, context: RequestContext, from = 0) {
  for (let i = from; i < from + count; i += 1) await insertEmail(db.api, `${tag}-${i}@example.com`, context);
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

const countOf = async (pattern: string) =>
  (await db.owner.query('select count(*)::int as n from public.waiting_list where email like $1', [pattern])).rows[0].n;

describe('the abuse guard', () => {
  it(`allows ${LIMIT} signups per client network per 10 minutes (one constant)`, async () => {
    const { rows } = await db.owner.query('select max_signups, extract(epoch from per)::int as seconds from private.signup_limit()');
    expect(rows).toEqual([{ max_signups: LIMIT, seconds: 600 }]);
  });

  it('admits the limit from one address, refuses the next, and still admits another address', async () => {
    await signUps('office', LIMIT, { clientIp: '203.0.113.7' });
    expectOverLimit(await refusal(insertEmail(db.api, 'office-late@example.com', { clientIp: '203.0.113.7' })));
    await insertEmail(db.api, 'elsewhere@example.com', { clientIp: '203.0.113.8' });
    expect(await countOf('office-%')).toBe(LIMIT);
  });

  it('trusts cf-connecting-ip, not the client-written start of x-forwarded-for', async () => {
    const forged = (i: number): RequestContext => ({
      clientIp: '198.51.100.9',
      headers: { 'x-forwarded-for': `192.0.2.${i}, 198.51.100.9` },
    });
    for (let i = 0; i < LIMIT; i += 1) await insertEmail(db.api, `forged-${i}@example.com`, forged(i));
    expectOverLimit(await refusal(insertEmail(db.api, 'forged-late@example.com', forged(LIMIT))));
  });

  it('counts an IPv6 client per /64, the block one subscriber gets', async () => {
    await signUps('v6', LIMIT / 2, { clientIp: '2001:db8:1:2::1' });
    await signUps('v6', LIMIT / 2, { clientIp: '2001:db8:1:2:ffff::9' }, LIMIT / 2);
    expectOverLimit(await refusal(insertEmail(db.api, 'v6-late@example.com', { clientIp: '2001:db8:1:2::abcd' })));
    await insertEmail(db.api, 'v6-next-block@example.com', { clientIp: '2001:db8:1:3::1' });
  });

  it('puts requests without a usable address in one shared bucket', async () => {
    await signUps('anonymous', LIMIT / 2, { clientIp: null });
    await signUps('anonymous', LIMIT / 2, { clientIp: 'not-an-address' }, LIMIT / 2);
    expectOverLimit(await refusal(insertEmail(db.api, 'anonymous-late@example.com', { clientIp: null })));
  });

  it('counts rows, not requests: one POST of an array cannot carry more than the limit', async () => {
    const batch = Array.from({ length: LIMIT + 1 }, (_, i) => ({ email: `batch-${i}@example.com` }));
    const request = apiRequest(db.api, POSTGREST_INSERT, [JSON.stringify(batch)], { clientIp: '203.0.113.50' });
    expectOverLimit(await refusal(request));
    expect(await countOf('batch-%')).toBe(0);
  });

  it('counts only signups that landed: refused duplicates and malformed addresses do not use it up', async () => {
    const context = { clientIp: '203.0.113.60' };
    for (let i = 0; i < LIMIT; i += 1) {
      await refusal(insertEmail(db.api, 'taken@example.com', context));
      await refusal(insertEmail(db.api, 'not-an-email', context));
    }
    await signUps('retry', LIMIT, context);
    expect(await countOf('retry-%')).toBe(LIMIT);
  });

  it('forgets signups older than the window', async () => {
    const context = { clientIp: '203.0.113.70' };
    await signUps('yesterday', LIMIT, context);
    await db.owner.query(
      `update private.signup_attempts set attempted_at = now() - interval '10 minutes 1 second' where client = '203.0.113.70'`,
    );
    await insertEmail(db.api, 'today@example.com', context);
    const { rows } = await db.owner.query(`select count(*)::int as n from private.signup_attempts where client = '203.0.113.70'`);
    expect(rows[0].n).toBe(1); // the expired ones were deleted, not just ignored
  });

  it('holds under concurrent requests from one address', async () => {
    const second = await connect(inject('database'), 'authenticator');
    const context = { clientIp: '203.0.113.80' };
    const refused: DatabaseError[] = [];
    const burst = async (client: typeof second, side: string) => {
      for (let i = 0; i < LIMIT; i += 1) {
        await insertEmail(client, `race-${side}-${i}@example.com`, context).catch((error) => refused.push(error));
      }
    };
    try {
      await Promise.all([burst(db.api, 'a'), burst(second, 'b')]);
    } finally {
      await second.end();
    }
    expect(await countOf('race-%')).toBe(LIMIT);
    expect(refused).toHaveLength(LIMIT);
    refused.forEach(expectOverLimit);
  });

  it('leaves the owner alone: seeds and imports are not API signups', async () => {
    for (let i = 0; i <= LIMIT; i += 1) {
      await db.owner.query('insert into public.waiting_list (email) values ($1)', [`import-${i}@example.com`]);
    }
    expect(await countOf('import-%')).toBe(LIMIT + 1);
  });
});

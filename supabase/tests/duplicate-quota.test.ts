/**
 * Asking about a listed address costs quota like a signup, although the refusal rolls the request
 * back: the count lives in sequences, which no rollback undoes. The visitor still sees 409 23505.
 */
import { describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, type RequestContext } from '../harness/api-request';
import { restoreGuardAfterEach, setClock, setLimit } from './guard';
import { answerOf, CREATED } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
const LISTED = 'taken@example.com';
let tag = 0;
const email = () => `dup-quota-${(tag += 1)}@example.com`;
const answer = (address: string, context: RequestContext) => answerOf(insertEmail(db.api, address, context));

restoreGuardAfterEach(db);

describe('duplicate attempts', () => {
  it('use up the network’s 10-minute quota, each answered 409 23505 until it is spent', async () => {
    await setClock(db.owner, '2099-06-01T10:00:00Z');
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 3);
    const prober = { clientIp: '203.0.113.170' };
    expect(await answer(email(), prober)).toEqual(CREATED);
    expect(await answer(LISTED, prober)).toEqual(answers.duplicate);
    expect(await answer(LISTED.toUpperCase(), prober)).toEqual(answers.duplicate);
    expect(await answer(LISTED, prober)).toEqual(answers.overSignupLimit);
    expect(await answer(email(), prober)).toEqual(answers.overSignupLimit);
    // Another network, even in the same request pattern, is untouched.
    expect(await answer(LISTED, { clientIp: '203.0.113.171' })).toEqual(answers.duplicate);
    // The next slot gives the prober a fresh 10-minute quota.
    await setClock(db.owner, '2099-06-01T10:10:00Z');
    expect(await answer(LISTED, prober)).toEqual(answers.duplicate);
  });

  it('use up the day too, for every network a request counts against (IPv6: its /64 and /48)', async () => {
    await setClock(db.owner, '2099-06-02T10:00:00Z');
    await setLimit(db.owner, 'ipv6/48', 'per_day', 2);
    expect(await answer(LISTED, { clientIp: '2001:db8:dd:1::1' })).toEqual(answers.duplicate);
    await setClock(db.owner, '2099-06-02T15:00:00Z');
    expect(await answer(LISTED, { clientIp: '2001:db8:dd:2::1' })).toEqual(answers.duplicate);
    expect(await answer(email(), { clientIp: '2001:db8:dd:3::1' })).toEqual(answers.overSignupLimit);
    expect(await answer(email(), { clientIp: '2001:db8:ee:3::1' })).toEqual(CREATED);
  });

  it('are refused (429), not free, on a day whose secret the upkeep job has not prepared', async () => {
    await setClock(db.owner, '2099-06-04T10:00:00Z');
    await db.owner.query(`delete from private.signup_secrets where day_start = '2099-06-04T00:00:00Z'`);
    const network = { clientIp: '203.0.113.172' };
    expect(await answer(LISTED, network)).toEqual(answers.overSignupLimit);
    expect(await answer(email(), network)).toEqual(CREATED); // a signup commits the day's secret
    expect(await answer(LISTED, network)).toEqual(answers.duplicate);
  });
});

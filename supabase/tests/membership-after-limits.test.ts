/**
 * No timing oracle once the quota is spent: the guard looks the address up only after the limits
 * admitted the request, so a refused request does the same work whether its address is listed or
 * not. Shown by what the request touches, not by a stopwatch: the advisory lock duplicates take,
 * and the scans of the address hashes.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { enterRequest, POSTGREST_INSERT, refusal } from '../harness/api-request';
import { connect } from '../harness/database';
import { restoreClock, restoreShippedLimits, setClock, setLimit } from './guard';
import { postgrestAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
const LISTED = 'taken@example.com';
const UNLISTED = 'membership-unlisted@example.com';
const NETWORK = { clientIp: '203.0.113.190' };

/**
 * One request of the network, in a transaction that survives its refusal (a savepoint): the
 * answer, and how often the request scanned private.signup_addresses.
 */
async function probe(client: Client, email: string, settings = '') {
  await client.query('begin');
  try {
    await enterRequest(client, NETWORK);
    if (settings) await client.query(settings);
    await client.query('savepoint request');
    const error = await refusal(client.query(POSTGREST_INSERT, [JSON.stringify({ email })]));
    await client.query('rollback to savepoint request');
    const { rows } = await client.query(
      `select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_xact_user_tables
       where schemaname = 'private' and relname = 'signup_addresses'`,
    );
    return { answer: postgrestAnswer(error), keyScans: Number(rows[0].scans) };
  } finally {
    await client.query('rollback');
  }
}

beforeAll(async () => {
  await setClock(db.owner, '2099-08-02T10:00:00Z');
  await setLimit(db.owner, 'ipv4', 'per_10_minutes', 0);
});
afterAll(async () => {
  await restoreShippedLimits(db.owner);
  await restoreClock(db.owner);
});

describe('once the quota is spent', () => {
  it('a listed and an unlisted address get the same 429 and never look at the address hashes', async () => {
    for (const email of [LISTED, UNLISTED]) {
      expect(await probe(db.api, email), email).toEqual({ answer: answers.overSignupLimit, keyScans: 0 });
    }
  });

  it('a listed address does not wait for the duplicates’ advisory lock while another request holds it', async () => {
    const holder = await connect(db.info, 'postgres');
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(hashtext('waitlist duplicates'))`);
      // Any wait for that lock would end in 55P03 (lock timeout): the lock is held throughout.
      const limited = `select set_config('lock_timeout', '200ms', true)`;
      for (const email of [LISTED, UNLISTED]) {
        expect((await probe(db.api, email, limited)).answer, email).toEqual(answers.overSignupLimit);
      }
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });

  it('an admitted duplicate still answers 409 and counts (the lock is still taken, after the limits)', async () => {
    await setLimit(db.owner, 'ipv4', 'per_10_minutes', 200);
    try {
      const { answer, keyScans } = await probe(db.api, LISTED);
      expect(answer).toEqual(answers.duplicate);
      expect(keyScans).toBeGreaterThan(0);
    } finally {
      await setLimit(db.owner, 'ipv4', 'per_10_minutes', 0);
    }
  });
});

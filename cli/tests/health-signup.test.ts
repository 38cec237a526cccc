/**
 * `waitlist health` proves that a visitor can join: a real signup as `anon`, rolled back, and a
 * test key wrapped to the owner key. Each failure after the address check is named by its step,
 * and nothing of the proof stays behind. On a database of its own, sealed by `keys init`.
 */
import { generateKey, readKey } from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, ownerUrl } from '../../supabase/harness/database';
import { keysInit } from './keys-init';
import { asSuperuser, useOwnDatabase } from './own-database';
import { findingsOf, health, useStandIns } from './health-stand-ins';
import { waitlist } from './run-cli';

const own = useOwnDatabase('health_signup');
const stand = useStandIns(() => own.info);

// A database of its own has no pg_cron (it runs in one database of the server): health's verdict
// there is never "healthy", so these tests read the signup finding, and its exit code once it fails.
beforeAll(async () => {
  await own.owner.query('insert into private.allowed_origins values ($1)', [stand.site.url]);
  const init = await keysInit({ DATABASE_URL: own.url });
  expect(init.result.code).toBe(0);
  // The stored copy proved, as the owner does after keys init: health's key finding is then ok.
  expect((await waitlist(['keys', 'check', '--key-file', init.keyFile], { DATABASE_URL: own.url })).code).toBe(0);
}, 120_000);

/** What a proof could leave: rows, hour keys (wrapped and clear), the proof network's counts. */
async function traces() {
  const { rows } = await own.owner.query(
    `select (select count(*) from public.waiting_list)::int as signups,
            (select count(*) from private.hour_keys)::int as wrapped,
            (select count(*) from private.hour_key_0) + (select count(*) from private.hour_key_1)
              + (select count(*) from private.hour_key_2) as clear,
            (select count(*) from private.signup_counts
             where network = private.network_hash('192.0.2.1/32'))::int as counted`,
  );
  return rows[0];
}

const signupFinding = async (env: Record<string, string> = {}) => {
  const run = await health(stand, ['--json'], env);
  return findingsOf(run).find((f) => f.check === 'signup');
};

describe('waitlist health, the signup proof', () => {
  it('proves a sealed, counted signup and a wrap to the owner key, leaving nothing behind', async () => {
    const before = await traces();
    expect(await signupFinding()).toEqual({
      check: 'signup',
      outcome: 'ok',
      says:
        "A signup as a visitor was stored, sealed and counted, and every holder's key wraps a test key; " +
        'all of it rolled back.',
    });
    expect(await traces()).toEqual(before);
  });

  it('holds no key pgcrypto cannot encrypt to: the database refuses it as a holder (39000)', async () => {
    const signOnly = await generateKey({ type: 'ecc', userIDs: [{ name: 'by hand' }], subkeys: [], format: 'binary' });
    const binary = (await readKey({ binaryKey: signOnly.publicKey })).toPacketList().write();
    await expect(own.owner.query('update private.key_holders set public_key = $1', [binary])).rejects.toMatchObject({
      code: '39000',
    });
  });

  it('names the counters when a signup is not counted (exit 1)', async () => {
    await asSuperuser(own, 'alter table public.waiting_list disable trigger limit_signups');
    try {
      const run = await health(stand);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'PROBLEM signup: A signup as a visitor went through, but the counters: the signup was not counted',
      );
    } finally {
      await asSuperuser(own, 'alter table public.waiting_list enable trigger limit_signups');
    }
  });

  it('names sealing when a seal cannot be made (exit 1)', async () => {
    const seal = 'private.seal_with(key_id bigint, clear_key bytea, id bigint, address text)';
    const { rows } = await own.owner.query(`select pg_get_functiondef('private.seal_with'::regproc) as definition`);
    await own.owner.query(
      `create or replace function ${seal} returns bytea language plpgsql as $$ begin raise 'no cipher'; end $$`,
    );
    try {
      const run = await health(stand);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('PROBLEM signup: A signup as a visitor fails at sealing: P0001 no cipher.');
    } finally {
      await own.owner.query(rows[0].definition);
    }
  });

  it("names a busy database, waiting no longer than anon's statement_timeout, as PostgREST's requests do", async () => {
    await own.owner.query(`alter role anon set statement_timeout = '1s'`);
    const holder = await connect(own.info, 'postgres');
    try {
      // Another request of the proof's network, holding the guard's lock on it.
      await holder.query('begin');
      await holder.query(
        `select pg_advisory_xact_lock(
           ('x' || encode(substring(private.network_hash('192.0.2.1/32') from 1 for 8), 'hex'))::bit(64)::bigint)`,
      );
      const run = await health(stand);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'PROBLEM signup: A signup as a visitor fails at a busy database (a wait ran out): ' +
          '57014 canceling statement due to statement timeout.',
      );
    } finally {
      await holder.end();
      await own.owner.query('alter role anon reset statement_timeout');
    }
  });

  it('says the proof was skipped, and why, for a role that cannot act as anon', async () => {
    await own.owner.query('create role waitlist_health_signup login');
    try {
      const url = ownerUrl(own.info).replace('//postgres@', '//waitlist_health_signup@');
      expect(await signupFinding({ DATABASE_URL: url })).toMatchObject({
        outcome: 'skipped',
        says: expect.stringContaining('cannot act as anon'),
      });
    } finally {
      await own.owner.query('drop role waitlist_health_signup');
    }
  });
});

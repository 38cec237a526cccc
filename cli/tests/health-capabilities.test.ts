/**
 * `waitlist health` proves what the sealing needs of the host, which the owner once checked by hand
 * in the SQL editor: pgcrypto wraps and seals for real (opened again by the owner's command), and
 * the hour key tables are UNLOGGED. Each refusal named (exit 1). On a database of its own: the
 * tests take pgcrypto's grants away and turn an hour key table into a logged one.
 */
import { describe, expect, it } from 'vitest';
import { findingsOf, health, useStandIns } from './health-stand-ins';
import { asSuperuser, useOwnDatabase } from './own-database';

const own = useOwnDatabase('health_capabilities');
const stand = useStandIns(() => own.info);

const capabilities = async () => {
  const run = await health(stand, ['--json']);
  return { code: run.code, finding: findingsOf(run).find((f) => f.check === 'capabilities') };
};

describe('waitlist health, the capabilities the sealing needs', () => {
  it('proves pgcrypto wraps to an RSA key and its seal opens here, and the hour key tables are unlogged', async () => {
    const { finding } = await capabilities();
    expect(finding).toEqual({
      check: 'capabilities',
      outcome: 'ok',
      says:
        'pgcrypto wraps to an RSA key and its seal of a test address opens here (gen_random_bytes, ' +
        'pgp_pub_encrypt_bytea, encrypt_iv, hmac); private.hour_key_0, private.hour_key_1, private.hour_key_2 are ' +
        'UNLOGGED (never in the WAL).',
    });
  });

  it('names an hour key table that is logged (its keys would be in the WAL), exit 1', async () => {
    await own.owner.query('alter table private.hour_key_1 set logged');
    try {
      const { code, finding } = await capabilities();
      expect(code).toBe(1);
      expect(finding).toMatchObject({
        outcome: 'problem',
        says:
          'The sealing needs what this database refuses: private.hour_key_1 missing or not UNLOGGED: the hour keys ' +
          'held in clear would be written to the WAL.',
      });
    } finally {
      await own.owner.query('alter table private.hour_key_1 set unlogged');
    }
  });

  it("skips the check for a role that may not seal (the daily check's), with why", async () => {
    const role = 'waitlist_capabilities_test';
    await asSuperuser(own, `create role ${role} login; grant usage on schema private to ${role}`);
    try {
      const run = await health(stand, ['--json'], { DATABASE_URL: own.url.replace('//postgres@', `//${role}@`) });
      expect(findingsOf(run).find((f) => f.check === 'capabilities')).toEqual({
        check: 'capabilities',
        outcome: 'skipped',
        says: "DATABASE_URL's role may not seal: run health as the owner.",
      });
    } finally {
      await asSuperuser(own, `revoke usage on schema private from ${role}; drop role ${role}`);
    }
  });

  it("names a seal the owner's command cannot open (a seal_with changed by hand), exit 1", async () => {
    const { rows } = await own.owner.query(
      `select pg_get_functiondef('private.seal_with(bigint, bytea, bigint, text)'::regprocedure) as sql`,
    );
    // The tag over iv ‖ ciphertext alone: the ids left out, as a hand-made "fix" might.
    await own.owner.query(rows[0].sql.replace('int8send(key_id) || int8send(id) || iv', 'iv'));
    try {
      const { code, finding } = await capabilities();
      expect(code).toBe(1);
      expect(finding?.says).toBe(
        'The sealing needs what this database refuses: pgcrypto cannot wrap or seal: Signup 2 cannot be opened: ' +
          'its tag does not verify.',
      );
    } finally {
      await own.owner.query(rows[0].sql);
    }
  });

  for (const [name, signature] of [
    ['pgp_pub_encrypt_bytea', 'bytea, bytea'],
    ['encrypt_iv', 'bytea, bytea, bytea, text'],
    ['hmac', 'bytea, bytea, text'],
  ]) {
    it(`names pgcrypto's ${name} when the database refuses it, exit 1`, async () => {
      const fn = `extensions.${name}(${signature})`;
      await asSuperuser(own, `revoke execute on function ${fn} from public`);
      try {
        const { code, finding } = await capabilities();
        expect(code).toBe(1);
        expect(finding).toMatchObject({
          outcome: 'problem',
          says: `The sealing needs what this database refuses: pgcrypto cannot wrap or seal: 42501 permission denied for function ${name}.`,
          fix: expect.stringContaining('the host lacks pgcrypto in schema extensions or unlogged tables'),
        });
      } finally {
        await asSuperuser(own, `grant execute on function ${fn} to public`);
      }
    });
  }
});

/**
 * `waitlist health` names an hour key table turned into a logged one (its keys would be in the WAL),
 * and `keys check` a seal the owner's command cannot open (seal_with changed by hand): what the host
 * must give the sealing, proven where it matters. On a database of its own, sealed by `keys init`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findingsOf, health, useStandIns } from './health-stand-ins';
import { keysInit, type Init } from './keys-init';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';

const own = useOwnDatabase('health_sealing');
const stand = useStandIns(() => own.info);
let init: Init;

beforeAll(async () => {
  init = await keysInit({ DATABASE_URL: own.url });
  expect(init.result.code, init.result.stderr).toBe(0);
}, 120_000);

describe('the sealing the host must allow', () => {
  it('health names an hour key table that is logged (its keys would be in the WAL), exit 1', async () => {
    await own.owner.query('alter table private.hour_key_1 set logged');
    try {
      const run = await health(stand, ['--json']);
      expect(run.code).toBe(2); // the key copy is not checked yet, a setup finding: 2 wins over 1
      expect(findingsOf(run).find((f) => f.check === 'sealing')).toMatchObject({
        outcome: 'problem',
        says: 'private.hour_key_1 missing or not UNLOGGED: the hour keys held in clear would be written to the WAL.',
      });
    } finally {
      await own.owner.query('alter table private.hour_key_1 set unlogged');
    }
  });

  it("keys check names a seal the owner's command cannot open (a seal_with changed by hand), exit 1", async () => {
    const { rows } = await own.owner.query(
      `select pg_get_functiondef('private.seal_with(bigint, bytea, bigint, text)'::regprocedure) as sql`,
    );
    // The tag over iv ‖ ciphertext alone: the ids left out, as a hand-made "fix" might.
    await own.owner.query(rows[0].sql.replace('int8send(key_id) || int8send(id) || iv', 'iv'));
    try {
      await own.owner.query(`insert into public.waiting_list (email) values ('after-the-change@example.com')`);
      const run = await waitlist(['keys', 'check', '--key-file', init.keyFile], { DATABASE_URL: own.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/Signup \d+ cannot be opened: its tag does not verify\./);
      expect(run.stdout + run.stderr).not.toContain('after-the-change@example.com');
    } finally {
      await own.owner.query(rows[0].sql);
    }
  });
});

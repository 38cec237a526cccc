/**
 * keys init keeps the owner's private key once the database holds its public half, even when a
 * later step fails: the hourly keys are wrapped to it from then on, and nothing else opens them.
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { keysInit } from './keys-init';
import { useOwnDatabase } from './own-database';
import { connect } from '../../supabase/harness/database';
import { seed } from './seed';

const db = useOwnDatabase('cli_keys_kept');

it('a step that fails after the public key is installed leaves the private key file in place, and says so', async () => {
  await seed(db.owner);
  // The command's sessions give up on a lock after 1 s; a writer holding the list makes the
  // step after the install (waiting for signups under way) give up.
  await db.owner.query(`alter role postgres in database cli_keys_kept set lock_timeout = '1s'`);
  const writer = await connect(db.info, 'postgres');
  try {
    await writer.query('begin');
    await writer.query('lock table public.waiting_list in row exclusive mode');
    const init = await keysInit();
    expect(init.result.code).not.toBe(0);
    expect(init.result.stderr).toContain(`Wrote your private key to ${init.keyFile}`);
    expect(init.result.stderr).toContain('The database holds your public key already');
    expect(init.result.stderr).toContain('npm run waitlist -- keys compact');
    expect(existsSync(init.keyFile)).toBe(true);
    const { rows } = await db.owner.query('select count(*)::int as n from private.owner_key');
    expect(rows[0].n).toBe(1);
  } finally {
    await writer.query('rollback');
    await writer.end();
    await db.owner.query(`alter role postgres in database cli_keys_kept reset lock_timeout`);
  }
});

it('a second keys init is refused before it writes any key file', async () => {
  const again = await keysInit(); // sealed already
  expect(again.result.code).not.toBe(0);
  expect(existsSync(again.keyFile)).toBe(false);
});

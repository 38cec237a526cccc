/**
 * keys init installs the owner's public key and seals the stored rows in one transaction, with
 * signups held off: when it cannot hold them off, nothing is installed and the private key file is
 * taken away again (a key left after a failure that did install it: keys-compact.test.ts).
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { keysInit } from './keys-init';
import { countRows, plaintextRows, useOwnDatabase } from './own-database';
import { connect } from '../../supabase/harness/database';
import { seed } from './seed';

const db = useOwnDatabase('cli_keys_kept');

it('a keys init that cannot hold signups off installs nothing, seals nothing and leaves no key file', async () => {
  await seed(db.owner);
  const before = await plaintextRows(db);
  // The command's sessions give up on a lock after 1 s; a signup under way holds the list.
  await db.owner.query(`alter role postgres in database cli_keys_kept set lock_timeout = '1s'`);
  const writer = await connect(db.info, 'postgres');
  try {
    await writer.query('begin');
    await writer.query('lock table public.waiting_list in row exclusive mode');
    const init = await keysInit();
    expect(init.result.code).not.toBe(0);
    expect(init.result.stderr).toContain('lock timeout');
    expect(existsSync(init.keyFile)).toBe(false);
    expect(await countRows(db.owner, 'private.key_holders')).toBe(0);
    expect(await plaintextRows(db)).toBe(before);
  } finally {
    await writer.query('rollback');
    await writer.end();
    await db.owner.query(`alter role postgres in database cli_keys_kept reset lock_timeout`);
  }
});

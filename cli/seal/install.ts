/**
 * `keys init`: the owner's public key goes in only once the private key, as saved, opened a test key the database
 * wrapped to it; in the same transaction the stored rows are sealed in Node.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { longQuery } from '../connect/database.ts';
import { keySignups, sealPending } from '../list/signups.ts';
import { inTransaction } from '../connect/queries.ts';
import { UsageError } from '../terminal/terminal.ts';
import { type OwnerKey, unwrap } from './owner-key.ts';
import { sealStoredInNode } from './seal-in-node.ts';

/**
 * The test: a random key wrapped by pgcrypto to `publicKey`, opened with `saved`. Throws a UsageError if it does not
 * open.
 */
async function proveOpens(db: pg.Client, publicKey: Buffer, saved: OwnerKey) {
  const { rows } = await db.query<{ wrapped: Buffer; digest: Buffer }>(
    `select extensions.pgp_pub_encrypt_bytea(t, $1) as wrapped, sha256(t) as digest
     from (select extensions.gen_random_bytes(32) as t) test`,
    [publicKey],
  );
  const opened = await unwrap(saved, rows[0].wrapped).catch((error: Error) => {
    throw new UsageError(`The saved private key does not open what the database wraps: ${error.message}`);
  });
  if (!timingSafeEqual(hash('sha256', opened, 'buffer'), rows[0].digest)) {
    throw new UsageError('The saved private key opened the test key wrongly: nothing was installed.');
  }
}

/** Installs the public key and seals every stored address in one transaction; returns how many. */
export function installOwnerKey(db: pg.Client, publicKey: Buffer, saved: OwnerKey) {
  return inTransaction(db, async () => {
    // Waits for every signup under way, and holds new ones until the commit: none is stored as typed after it.
    // (A second `keys init` waits here too, then finds the list sealed.)
    await db.query(longQuery('lock table public.waiting_list in share row exclusive mode'));
    const { rows } = await db.query('select exists (select from private.key_holders) as sealed');
    if (rows[0].sealed) throw new UsageError('The list is sealed already.');
    await proveOpens(db, publicKey, saved);
    await keySignups(db); // before the owner key: it hashes rows restored with triggers off, seals nothing
    const holder = await db.query<{ id: string }>(
      'insert into private.key_holders (public_key, fingerprint) values ($1, $2) returning id::text',
      [publicKey, saved.getFingerprint().toUpperCase()],
    );
    return sealStoredInNode(db, { id: holder.rows[0].id, publicKey });
  });
}

/** Seals every address still stored as typed (private.seal_pending, the hour's key); returns how many. */
export async function sealStored(db: pg.Client) {
  // Waits for every signup that began before now (it may have stored its address as typed).
  await inTransaction(db, () => db.query('lock table public.waiting_list in share mode'));
  return sealPending(db);
}

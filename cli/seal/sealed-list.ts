/** What the owner's commands ask the database about sealing, and the key check before opening. */
import type { Queryable } from '../list/signups.ts';
import { UsageError } from '../terminal.ts';
import { Opener, SealBroken } from './open.ts';
import { matches, ownerKey } from './owner-key.ts';

/** The owner's public key as the database holds it; null before `keys init`. */
export async function installedPublicKey(db: Queryable): Promise<Buffer | null> {
  const { rows } = await db.query<{ public_key: Buffer }>('select public_key from private.owner_key');
  return rows[0]?.public_key ?? null;
}

/**
 * What opens the list's seals: the owner's private key, refused (exit 2) unless it is the one whose
 * public key the database holds; null while nothing is sealed (before `keys init`), when no key is asked.
 */
export async function openerFor(db: Queryable, purpose: string): Promise<Opener | null> {
  const publicKey = await installedPublicKey(db);
  if (!publicKey) return null;
  const key = await ownerKey(purpose);
  if (!(await matches(key, publicKey))) {
    throw new UsageError("That owner key does not open this list (the database holds another one's public key).");
  }
  return new Opener(key);
}

/** A signup as the list stores it: its address before `keys init`, else its seal. */
export type StoredAddress = { id: string; email: string | null; hour_key_id: string | null; seal: Buffer | null };

/** The address, opened if sealed (one row: notify's claims; export opens in bulk). */
export async function addressOf(db: Queryable, row: StoredAddress, opener: Opener | null): Promise<string> {
  if (row.email !== null) return row.email;
  if (row.seal === null || row.hour_key_id === null)
    throw new SealBroken(`Signup ${row.id} holds neither an address nor a seal.`);
  if (!opener) throw new SealBroken(`Signup ${row.id} is sealed, but no owner key is installed.`);
  return opener.open(db, { id: BigInt(row.id), hourKeyId: BigInt(row.hour_key_id), seal: row.seal });
}

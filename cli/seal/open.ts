/**
 * Opening seals, on the owner's machine only: createHmac and timingSafeEqual check the tag first, then
 * createDecipheriv; each hour key unwrapped with the owner's private key (checked against the installed one).
 */
import { createDecipheriv, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Queryable } from '../list/signups.ts';
import { splitHourKey, splitSeal, tagInput } from '../../contracts/seal-format.ts';
import { matches, type OwnerKey, ownerKey, unwrap } from './owner-key.ts';
import { UsageError } from '../terminal.ts';

export type SealedRow = { id: bigint; hourKeyId: bigint; seal: Buffer };
export type WrappedKey = { id: bigint; wrapped: Buffer };

/** The wrapped hour keys of `ids`, or every one the database holds. */
export async function wrappedKeys(db: Queryable, ids?: bigint[]): Promise<WrappedKey[]> {
  const { rows } = await db.query<{ id: string; wrapped: Buffer }>(
    'select id::text, wrapped from private.wrapped_hour_keys where $1::bigint[] is null or id = any ($1) order by id',
    [ids?.map(String) ?? null],
  );
  return rows.map((row) => ({ id: BigInt(row.id), wrapped: row.wrapped }));
}

export class SealBroken extends Error {}

type Keys = { encryption: KeyObject; authentication: KeyObject };

/** An hour key in clear as the opening uses it (throws RangeError for a wrong length). */
export function keysOf(key: Buffer): Keys {
  const { encryption, authentication } = splitHourKey(key);
  return { encryption: createSecretKey(encryption), authentication: createSecretKey(authentication) };
}

const broken = (row: SealedRow, why: string) => new SealBroken(`Signup ${row.id} cannot be opened: ${why}.`);

/** The address of one row as UTF-8 under its hour key's `keys`; throws SealBroken for a row that does not verify. */
export function openSeal(keys: Keys, row: SealedRow, ids = new DataView(new ArrayBuffer(16))): Buffer {
  const parts = splitSeal(row.seal);
  if (!parts) throw broken(row, 'it has the wrong length');
  const [idBytes, signed] = tagInput(row.hourKeyId, row.id, parts.signed, ids);
  const tag = createHmac('sha256', keys.authentication).update(idBytes).update(signed).digest();
  if (!timingSafeEqual(tag, parts.tag)) throw broken(row, 'its tag does not verify');
  const decipher = createDecipheriv('aes-256-cbc', keys.encryption, parts.iv);
  try {
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
  } catch {
    throw broken(row, 'its padding is wrong');
  }
}

/** Hour keys unwrapped at once (each an RSA-3072 decryption, about 2 ms on one core). */
const UNWRAP_AT_ONCE = 16;

export class Opener {
  private readonly hourKeys = new Map<bigint, Keys>();
  private readonly owner: OwnerKey;
  private readonly ids = new DataView(new ArrayBuffer(16));

  constructor(owner: OwnerKey) {
    this.owner = owner;
  }

  /** Unwraps `keys`, those not unwrapped yet, several at once. */
  async unwrapAll(keys: WrappedKey[]): Promise<void> {
    const todo = keys.filter((key) => !this.hourKeys.has(key.id));
    for (let i = 0; i < todo.length; i += UNWRAP_AT_ONCE) {
      await Promise.all(todo.slice(i, i + UNWRAP_AT_ONCE).map((key) => this.unwrapOne(key)));
    }
  }

  private async unwrapOne({ id, wrapped }: WrappedKey): Promise<void> {
    const key = await unwrap(this.owner, wrapped).catch((error: Error) => {
      throw new SealBroken(`Hour key ${id} cannot be unwrapped with this owner key: ${error.message}`);
    });
    try {
      this.hourKeys.set(id, keysOf(key));
    } catch (error) {
      throw new SealBroken(`Hour key ${id}: ${(error as Error).message}.`);
    } finally {
      key.fill(0);
    }
  }

  /** The address of one row as UTF-8, its hour key unwrapped already; throws SealBroken for a row that does not verify. */
  openOne(row: SealedRow): Buffer {
    const keys = this.hourKeys.get(row.hourKeyId);
    if (!keys) throw broken(row, `its hour key ${row.hourKeyId} was not unwrapped`);
    return openSeal(keys, row, this.ids);
  }

  /** The address of one row, its hour key unwrapped first if need be (notify's claims, one at a time). */
  async open(db: Queryable, row: SealedRow): Promise<string> {
    if (!this.hourKeys.has(row.hourKeyId)) await this.unwrapAll(await wrappedKeys(db, [row.hourKeyId]));
    return this.openOne(row).toString('utf8');
  }
}

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
  const another = "That owner key does not open this list (the database holds another one's public key).";
  if (!(await matches(key, publicKey))) throw new UsageError(another);
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

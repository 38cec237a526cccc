/**
 * Opening seals, on the owner's machine only: createHmac and timingSafeEqual check the tag first, then
 * createDecipheriv; each hour key unwrapped with the owner's private key (checked against the installed one).
 */
import { createDecipheriv, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Queryable } from '../connect/queries.ts';
import { splitHourKey, splitSeal, tagInput } from '../../contracts/seal-format.ts';
import { matches, type OwnerKey, ownerKey, unwrap } from './owner-key.ts';
import { UsageError } from '../terminal/terminal.ts';

type SealedRow = { id: bigint; hourKeyId: bigint; seal: Buffer };
type WrappedKey = { id: bigint; wrapped: Buffer };

/** The hour keys of `ids` (or every one) wrapped to `holder`. */
export async function wrappedKeys(db: Queryable, holder: string, ids?: bigint[]): Promise<WrappedKey[]> {
  const { rows } = await db.query<{ id: string; wrapped: Buffer }>(
    `select hour_key_id::text as id, wrapped from private.wrapped_hour_keys
     where holder_id = $1 and ($2::bigint[] is null or hour_key_id = any ($2)) order by hour_key_id`,
    [holder, ids?.map(String) ?? null],
  );
  return rows.map((row) => ({ id: BigInt(row.id), wrapped: row.wrapped }));
}

class SealBroken extends Error {}

type Keys = { encryption: KeyObject; authentication: KeyObject };

/** An hour key in clear as the opening uses it (throws RangeError for a wrong length). */
function keysOf(key: Buffer): Keys {
  const { encryption, authentication } = splitHourKey(key);
  return { encryption: createSecretKey(encryption), authentication: createSecretKey(authentication) };
}

const broken = (row: SealedRow, why: string) => new SealBroken(`Signup ${row.id} cannot be opened: ${why}.`);

/** The address of one row as UTF-8 under its hour key's `keys`; throws SealBroken for a row that does not verify. */
function openSeal(keys: Keys, row: SealedRow, ids = new DataView(new ArrayBuffer(16))): Buffer {
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
  private readonly ids = new DataView(new ArrayBuffer(16));

  readonly owner: OwnerKey;
  /** The key holder whose public half matches `owner`. */
  readonly holder: Holder;

  constructor(owner: OwnerKey, holder: Holder) {
    this.owner = owner;
    this.holder = holder;
  }

  /** Unwraps `keys`, those not unwrapped yet, several at once. */
  async unwrapAll(keys: WrappedKey[]) {
    const todo = keys.filter((key) => !this.hourKeys.has(key.id));
    for (let i = 0; i < todo.length; i += UNWRAP_AT_ONCE) {
      await Promise.all(todo.slice(i, i + UNWRAP_AT_ONCE).map((key) => this.unwrapOne(key)));
    }
  }

  private async unwrapOne({ id, wrapped }: WrappedKey) {
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

  /**
   * The address of one row as UTF-8, its hour key unwrapped already; throws SealBroken for a row that does not verify.
   */
  openOne(row: SealedRow): Buffer {
    const keys = this.hourKeys.get(row.hourKeyId);
    if (!keys) throw broken(row, `its hour key ${row.hourKeyId} is not wrapped to key ${this.holder.keyId}`);
    return openSeal(keys, row, this.ids);
  }

  /** The address of one row, its hour key unwrapped first if need be (notify's claims, one at a time). */
  async open(db: Queryable, row: SealedRow) {
    if (!this.hourKeys.has(row.hourKeyId)) await this.unwrapAll(await wrappedKeys(db, this.holder.id, [row.hourKeyId]));
    return this.openOne(row).toString('utf8');
  }
}

/** SQL: the hour key `k` has no wrapped copy for the holder `holder` (an SQL expression). */
export const notWrappedTo = (holder: string) =>
  `not exists (select from private.wrapped_hour_keys w where w.hour_key_id = k.id and w.holder_id = ${holder})`;

/**
 * A key holder: its row, the key id of its encryption key (pgcrypto's pgp_key_id), its primary key's fingerprint (once
 * recorded), its public half.
 */
export type Holder = {
  id: string;
  keyId: string;
  fingerprint: string | null;
  publicKey: Buffer;
  checkedAt: Date | null;
};

/** The list's key holders, oldest first; none before `keys init`. */
export async function holders(db: Queryable): Promise<Holder[]> {
  const { rows } = await db.query<Holder>(
    `select id::text, extensions.pgp_key_id(public_key) as "keyId", fingerprint, public_key as "publicKey",
            checked_at as "checkedAt" from private.key_holders order by id`,
  );
  return rows;
}

/**
 * What opens the list's seals: a holder's private key (from `file`, or as ownerKey finds it), refused
 * (exit 2) unless the database holds its public half; null while nothing is sealed (no key asked).
 */
export async function openerFor(db: Queryable, purpose: string, file?: string): Promise<Opener | null> {
  const all = await holders(db);
  if (!all.length) return null;
  const key = await ownerKey(purpose, file);
  for (const holder of all) if (await matches(key, holder.publicKey)) return new Opener(key, holder);
  throw new UsageError(`That owner key does not open this list: it is none of its ${all.length} holders' keys.`);
}

/** A signup as the list stores it: its address before `keys init`, else its seal. */
export type StoredAddress = { id: string; email: string | null; hour_key_id: string | null; seal: Buffer | null };

/** The address, opened if sealed (one row: notify's claims; export opens in bulk). */
export async function addressOf(db: Queryable, row: StoredAddress, opener: Opener | null) {
  if (row.email !== null) return row.email;
  if (row.seal === null || row.hour_key_id === null) {
    throw new SealBroken(`Signup ${row.id} holds neither an address nor a seal.`);
  }
  if (!opener) throw new SealBroken(`Signup ${row.id} is sealed, but no owner key is installed.`);
  return opener.open(db, { id: BigInt(row.id), hourKeyId: BigInt(row.hour_key_id), seal: row.seal });
}

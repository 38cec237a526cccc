/**
 * Opening seals (contracts/seal-format.ts), on the owner's machine only, with Node's library calls
 * per row: createHmac and timingSafeEqual check the tag first (encrypt-then-MAC), createDecipheriv
 * opens. Each hour key is unwrapped with the owner's private key the first time a row needs it.
 */
import { createDecipheriv, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Queryable } from '../list/signups.ts';
import { splitHourKey, splitSeal, tagInput } from '../../contracts/seal-format.ts';
import { type OwnerKey, unwrap } from './owner-key.ts';

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
    let key: Buffer;
    try {
      key = await unwrap(this.owner, wrapped);
    } catch (error) {
      throw new SealBroken(`Hour key ${id} cannot be unwrapped with this owner key: ${(error as Error).message}`);
    }
    try {
      const { encryption, authentication } = splitHourKey(key);
      this.hourKeys.set(id, {
        encryption: createSecretKey(encryption),
        authentication: createSecretKey(authentication),
      });
    } catch (error) {
      throw new SealBroken(`Hour key ${id}: ${(error as Error).message}.`);
    } finally {
      key.fill(0);
    }
  }

  private broken(row: SealedRow, why: string): SealBroken {
    return new SealBroken(`Signup ${row.id} cannot be opened: ${why}.`);
  }

  /** The address of one row as UTF-8, its hour key unwrapped already; throws SealBroken for a row that does not verify. */
  openOne(row: SealedRow): Buffer {
    const keys = this.hourKeys.get(row.hourKeyId);
    if (!keys) throw this.broken(row, `its hour key ${row.hourKeyId} was not unwrapped`);
    const parts = splitSeal(row.seal);
    if (!parts) throw this.broken(row, 'it has the wrong length');
    const [ids, signed] = tagInput(row.hourKeyId, row.id, parts.signed, this.ids);
    const tag = createHmac('sha256', keys.authentication).update(ids).update(signed).digest();
    if (!timingSafeEqual(tag, parts.tag)) throw this.broken(row, 'its tag does not verify');
    const decipher = createDecipheriv('aes-256-cbc', keys.encryption, parts.iv);
    try {
      return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
    } catch {
      throw this.broken(row, 'its padding is wrong');
    }
  }

  /** The address of one row, its hour key unwrapped first if need be (notify's claims, one at a time). */
  async open(db: Queryable, row: SealedRow): Promise<string> {
    if (!this.hourKeys.has(row.hourKeyId)) await this.unwrapAll(await wrappedKeys(db, [row.hourKeyId]));
    return this.openOne(row).toString('utf8');
  }
}

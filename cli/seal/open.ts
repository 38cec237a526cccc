/**
 * Opening sealed addresses, on the owner's machine only, with Node's library calls per row:
 * createHmac and timingSafeEqual check the tag first (encrypt-then-MAC), createDecipheriv opens.
 * A row sealed with an hourly key (key_id) has the tag over key id (int8) ‖ signup id (int8) ‖ iv ‖
 * ciphertext, its key's first 32 bytes for AES-256-CBC and last 32 for HMAC-SHA256; a row sealed by
 * the ratchet (step) over step (int4) ‖ signup id (int8) ‖ iv ‖ ciphertext (cli/seal/seal.ts).
 */
import { createDecipheriv, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type pg from 'pg';
import { type OwnerKey, unwrap } from './owner-key.ts';
import type { Ratchet } from './ratchet.ts';
import { BLOCK, IV_BYTES, rowHeader, TAG_BYTES } from './seal.ts';

export type SealedRow = { id: bigint; step: number | null; keyId: bigint | null; sealed: Buffer };
export type WrappedKey = { id: bigint; wrapped: Buffer };

type Queryable = pg.Client | pg.Pool | pg.PoolClient;

/** The hourly keys of `ids`, or every one the database holds, as wrapped to the owner's public key. */
export async function wrappedKeys(db: Queryable, ids?: bigint[]): Promise<WrappedKey[]> {
  const { rows } = await db.query<{ id: string; wrapped: Buffer }>(
    'select id::text, wrapped from private.seal_keys where $1::bigint[] is null or id = any ($1::bigint[]) order by id',
    [ids?.map(String) ?? null],
  );
  return rows.map((row) => ({ id: BigInt(row.id), wrapped: row.wrapped }));
}

export class SealBroken extends Error {}

type Keys = { encryption: KeyObject; authentication: KeyObject };

const HOUR_KEY_BYTES = 64;
/** Hourly keys unwrapped at once (each an RSA-3072 decryption, about 2 ms on one core). */
const UNWRAP_AT_ONCE = 16;

export class Opener {
  private readonly hourKeys = new Map<bigint, Keys>();
  /** What a tag covers before the seal, key id ‖ id or step ‖ id, rewritten for each row (HMAC's update copies it). */
  private readonly hourHeader = Buffer.allocUnsafe(16);
  private readonly stepHeader = Buffer.allocUnsafe(12);
  private readonly owner: OwnerKey | null;
  private readonly ratchet: Ratchet | null;

  constructor(owner: OwnerKey | null, ratchet: Ratchet | null) {
    this.owner = owner;
    this.ratchet = ratchet;
  }

  /** Unwraps the hourly keys of `ids` not unwrapped yet (those of the rows notify meets). */
  async load(db: Queryable, ids: bigint[]): Promise<void> {
    const wanted = ids.filter((id) => !this.hourKeys.has(id));
    if (this.owner && wanted.length) await this.unwrapAll(await wrappedKeys(db, wanted));
  }

  /** Unwraps `keys` (wrappedKeys), those not unwrapped yet, several at once. */
  async unwrapAll(keys: WrappedKey[]): Promise<void> {
    if (!this.owner) return;
    const todo = keys.filter((key) => !this.hourKeys.has(key.id));
    for (let i = 0; i < todo.length; i += UNWRAP_AT_ONCE) {
      await Promise.all(todo.slice(i, i + UNWRAP_AT_ONCE).map((key) => this.unwrapOne(key.id, key.wrapped)));
    }
  }

  private async unwrapOne(id: bigint, wrapped: Buffer): Promise<void> {
    let key: Buffer;
    try {
      key = await unwrap(this.owner!, wrapped);
    } catch (error) {
      throw new SealBroken(`Sealing key ${id} cannot be unwrapped with this owner key: ${(error as Error).message}`);
    }
    if (key.length !== HOUR_KEY_BYTES) throw new SealBroken(`Sealing key ${id} has the wrong length.`);
    this.hourKeys.set(id, {
      encryption: createSecretKey(key.subarray(0, 32)),
      authentication: createSecretKey(key.subarray(32)),
    });
    key.fill(0);
  }

  /** The hourly key ids among `rows` not unwrapped yet. */
  missing(rows: SealedRow[]): bigint[] {
    return [
      ...new Set(rows.flatMap((row) => (row.keyId !== null && !this.hourKeys.has(row.keyId) ? [row.keyId] : []))),
    ];
  }

  private keysOf(row: SealedRow): { keys: Keys; header: Buffer } {
    if (row.keyId !== null) {
      const keys = this.hourKeys.get(row.keyId);
      if (!keys) throw this.broken(row, `its sealing key ${row.keyId} was not unwrapped`);
      this.hourHeader.writeBigInt64BE(row.keyId, 0);
      this.hourHeader.writeBigInt64BE(row.id, 8);
      return { keys, header: this.hourHeader };
    }
    if (row.step === null) throw this.broken(row, 'it names no key');
    if (!this.ratchet) throw this.broken(row, 'it was sealed by the ratchet, and no recovery key was given');
    return { keys: this.ratchet.at(row.step), header: rowHeader(row.step, row.id, this.stepHeader) };
  }

  private broken(row: SealedRow, why: string): SealBroken {
    return new SealBroken(`Signup ${row.id} cannot be opened: ${why}.`);
  }

  /** The address of one row as UTF-8; throws SealBroken for a row that does not verify. */
  openOne(row: SealedRow): Buffer {
    const { keys, header } = this.keysOf(row);
    const body = row.sealed.length - TAG_BYTES;
    if (body < IV_BYTES + BLOCK || (body - IV_BYTES) % BLOCK !== 0) throw this.broken(row, 'it has the wrong length');
    const tag = createHmac('sha256', keys.authentication).update(header).update(row.sealed.subarray(0, body)).digest();
    if (!timingSafeEqual(tag, row.sealed.subarray(body))) throw this.broken(row, 'its tag does not verify');
    const decipher = createDecipheriv('aes-256-cbc', keys.encryption, row.sealed.subarray(0, IV_BYTES));
    try {
      return Buffer.concat([decipher.update(row.sealed.subarray(IV_BYTES, body)), decipher.final()]);
    } catch {
      throw this.broken(row, 'its padding is wrong');
    }
  }

  /** The addresses of `rows` as UTF-8, in order. */
  open(rows: SealedRow[]): Buffer[] {
    return rows.map((row) => this.openOne(row));
  }
}

/**
 * Opening sealed addresses in bulk, on the owner's machine only. Per row, the obvious way (one
 * createDecipheriv and one createHmac) costs about 20 µs; here each step's rows are deciphered by
 * one AES-256-ECB call over all their blocks, CBC's XOR done by hand, and the tag is HMAC written
 * out as two one-shot SHA-256 hashes with the step's padded keys prepared once.
 */
import { createDecipheriv, hash, type KeyObject } from 'node:crypto';
import type { Ratchet } from './ratchet.ts';
import { BLOCK, IV_BYTES, rowHeader, TAG_BYTES } from './seal.ts';

export type SealedRow = { id: bigint; step: number; sealed: Buffer };

export class SealBroken extends Error {}

const SHA256_BLOCK = 64;
const HEADER = 12;

type Prepared = { encryption: KeyObject; inner: Buffer; outer: Buffer };

function padded(key: Buffer, byte: number): Buffer {
  const pad = Buffer.alloc(SHA256_BLOCK, byte);
  for (let i = 0; i < key.length; i += 1) pad[i] ^= key[i];
  return pad;
}

export class Opener {
  private readonly prepared = new Map<number, Prepared>();
  private scratch = Buffer.allocUnsafe(1024);
  private readonly outer = Buffer.allocUnsafe(SHA256_BLOCK + 32);

  private readonly ratchet: Ratchet;

  constructor(ratchet: Ratchet) {
    this.ratchet = ratchet;
  }

  private keys(step: number): Prepared {
    let keys = this.prepared.get(step);
    if (!keys) {
      const { encryption, authenticationKey } = this.ratchet.at(step);
      keys = { encryption, inner: padded(authenticationKey, 0x36), outer: padded(authenticationKey, 0x5c) };
      this.prepared.set(step, keys);
    }
    return keys;
  }

  private verify(row: SealedRow, keys: Prepared): void {
    const body = row.sealed.length - TAG_BYTES;
    if (body < IV_BYTES + BLOCK || (body - IV_BYTES) % BLOCK !== 0) throw this.broken(row, 'it has the wrong length');
    const length = SHA256_BLOCK + HEADER + body;
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafe(length);
    keys.inner.copy(this.scratch, 0);
    rowHeader(row.step, row.id, this.scratch, SHA256_BLOCK);
    row.sealed.copy(this.scratch, SHA256_BLOCK + HEADER, 0, body);
    keys.outer.copy(this.outer, 0);
    hash('sha256', this.scratch.subarray(0, length), 'buffer').copy(this.outer, SHA256_BLOCK);
    const tag = hash('sha256', this.outer, 'buffer');
    if (!tag.equals(row.sealed.subarray(body))) {
      throw this.broken(row, `its tag does not verify under step ${row.step} of this recovery key`);
    }
  }

  private broken(row: SealedRow, why: string): SealBroken {
    return new SealBroken(`Signup ${row.id} cannot be opened: ${why}.`);
  }

  /** The addresses of `rows` as UTF-8, in order; throws SealBroken for a row that does not verify. */
  open(rows: SealedRow[]): Buffer[] {
    const byStep = new Map<number, number[]>();
    for (let i = 0; i < rows.length; i += 1) {
      const list = byStep.get(rows[i].step);
      if (list) list.push(i);
      else byStep.set(rows[i].step, [i]);
    }
    const opened = new Array<Buffer>(rows.length);
    for (const [step, indexes] of byStep) this.openStep(rows, indexes, this.keys(step), opened);
    return opened;
  }

  private openStep(rows: SealedRow[], indexes: number[], keys: Prepared, opened: Buffer[]): void {
    let total = 0;
    for (const i of indexes) {
      this.verify(rows[i], keys);
      total += rows[i].sealed.length - IV_BYTES - TAG_BYTES;
    }
    const blocks = Buffer.allocUnsafe(total);
    let at = 0;
    for (const i of indexes) at += rows[i].sealed.copy(blocks, at, IV_BYTES, rows[i].sealed.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-ecb', keys.encryption, null).setAutoPadding(false);
    const plain = decipher.update(blocks); // whole blocks, no padding held back: final() adds nothing
    decipher.final();
    at = 0;
    for (const i of indexes) {
      const sealed = rows[i].sealed;
      const end = at + sealed.length - IV_BYTES - TAG_BYTES;
      // CBC: each deciphered block XOR the ciphertext block before it (the IV for the first).
      for (let p = at, c = 0; p < end; p += 1, c += 1) plain[p] ^= sealed[c];
      const pad = plain[end - 1];
      if (pad < 1 || pad > BLOCK || !plain.subarray(end - pad, end).every((b) => b === pad)) {
        throw this.broken(rows[i], 'its padding is wrong');
      }
      opened[i] = plain.subarray(at, end - pad);
      at = end;
    }
  }
}

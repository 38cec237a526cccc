/**
 * One sealed address, as the database writes it (private.seal_address) and as `keys init` writes
 * the rows that came before it: iv (16 bytes) ‖ AES-256-CBC of the UTF-8 address with PKCS#7
 * padding ‖ HMAC-SHA256 over step (int4) ‖ signup id (int8) ‖ iv ‖ ciphertext (32 bytes).
 * Encrypt-then-MAC; the step and id in the tag tie the seal to its row and its key.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import type { StepKeys } from './ratchet.ts';

export const IV_BYTES = 16;
export const TAG_BYTES = 32;
export const BLOCK = 16;

/** step ‖ id, big-endian, as the tag covers them. */
export function rowHeader(step: number, id: bigint, into = Buffer.allocUnsafe(12), at = 0): Buffer {
  into.writeInt32BE(step, at);
  into.writeBigInt64BE(id, at + 4);
  return into;
}

export function seal(keys: StepKeys, id: bigint, address: string | Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-cbc', keys.encryption, iv);
  const ciphertext = Buffer.concat([
    typeof address === 'string' ? cipher.update(address, 'utf8') : cipher.update(address),
    cipher.final(),
  ]);
  const tag = createHmac('sha256', keys.authentication)
    .update(rowHeader(keys.step, id))
    .update(iv)
    .update(ciphertext)
    .digest();
  return Buffer.concat([iv, ciphertext, tag]);
}

/** A seal with an hourly key (private.seal_with): AES-256-CBC under its first 32 bytes, HMAC-SHA256 under its last 32. */
export function sealWithHourKey(keyId: bigint, key: Buffer, id: bigint, address: string | Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-cbc', key.subarray(0, 32), iv);
  const ciphertext = Buffer.concat([
    typeof address === 'string' ? cipher.update(address, 'utf8') : cipher.update(address),
    cipher.final(),
  ]);
  const header = Buffer.allocUnsafe(16);
  header.writeBigInt64BE(keyId, 0);
  header.writeBigInt64BE(id, 8);
  const tag = createHmac('sha256', key.subarray(32)).update(header).update(iv).update(ciphertext).digest();
  return Buffer.concat([iv, ciphertext, tag]);
}

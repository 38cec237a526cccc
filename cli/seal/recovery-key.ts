/**
 * The owner's recovery key on paper: 32 random bytes and a 4-byte checksum, base64url, after a
 * prefix that says what it is. One line, 54 characters; a typo fails the checksum.
 */
import { createHash, randomBytes } from 'node:crypto';
import { UsageError } from '../terminal.ts';

const PREFIX = 'wlrk1_';
const KEY_BYTES = 32;
const CHECK_BYTES = 4;
const SHAPE = new RegExp(`^${PREFIX}[A-Za-z0-9_-]{${Math.ceil(((KEY_BYTES + CHECK_BYTES) * 4) / 3)}}$`);

const checksum = (key: Buffer) => createHash('sha256').update(PREFIX).update(key).digest().subarray(0, CHECK_BYTES);

export function newRecoveryKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function formatRecoveryKey(key: Buffer): string {
  return PREFIX + Buffer.concat([key, checksum(key)]).toString('base64url');
}

/** The key from its written form; a clear UsageError for anything else. */
export function parseRecoveryKey(text: string): Buffer {
  const written = text.trim();
  if (!SHAPE.test(written)) {
    throw new UsageError(
      `That is not a recovery key: it is one line of ${PREFIX.length + 48} characters starting with ${PREFIX}.`,
    );
  }
  const bytes = Buffer.from(written.slice(PREFIX.length), 'base64url');
  const key = bytes.subarray(0, KEY_BYTES);
  if (!checksum(key).equals(bytes.subarray(KEY_BYTES))) {
    throw new UsageError('The recovery key has a typo: its checksum does not match. Check it character by character.');
  }
  return key;
}

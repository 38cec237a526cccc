/**
 * The layout of a seal, what the database writes (private.seal_with) and the owner's command reads
 * and writes (cli/seal/): iv (16 bytes) ‖ AES-256-CBC ciphertext of the UTF-8 address (PKCS#7) ‖
 * HMAC-SHA256 tag (32 bytes) over hour key id (int8) ‖ signup id (int8) ‖ iv ‖ ciphertext. An hour
 * key is 64 bytes: the first 32 for AES-256-CBC, the last 32 for HMAC-SHA256. Layout only: the
 * cryptography stays with the caller's library. Web APIs only.
 */

export const IV_BYTES = 16;
export const TAG_BYTES = 32;
export const HOUR_KEY_BYTES = 64;
const BLOCK = 16;

/** An hour key's two halves. */
export function splitHourKey(key: Uint8Array): { encryption: Uint8Array; authentication: Uint8Array } {
  if (key.length !== HOUR_KEY_BYTES) throw new RangeError(`an hour key is ${HOUR_KEY_BYTES} bytes, not ${key.length}`);
  return { encryption: key.subarray(0, 32), authentication: key.subarray(32) };
}

/**
 * A seal's parts (views, no copy), or null when its length cannot be a seal's. `signed` is
 * iv ‖ ciphertext, what the tag covers after the ids.
 */
export function splitSeal(
  seal: Uint8Array,
): { iv: Uint8Array; ciphertext: Uint8Array; signed: Uint8Array; tag: Uint8Array } | null {
  const body = seal.length - TAG_BYTES;
  if (body < IV_BYTES + BLOCK || (body - IV_BYTES) % BLOCK !== 0) return null;
  return {
    iv: seal.subarray(0, IV_BYTES),
    ciphertext: seal.subarray(IV_BYTES, body),
    signed: seal.subarray(0, body),
    tag: seal.subarray(body),
  };
}

/**
 * What the tag covers, in order: the ids (16 bytes, big-endian), then iv ‖ ciphertext as `signed`.
 * `into`: 16 bytes to write the ids to (one reused across rows; the HMAC copies what it is given).
 */
export function tagInput(
  hourKeyId: bigint,
  signupId: bigint,
  signed: Uint8Array,
  into = new DataView(new ArrayBuffer(16)),
): [Uint8Array, Uint8Array] {
  into.setBigInt64(0, hourKeyId);
  into.setBigInt64(8, signupId);
  return [new Uint8Array(into.buffer, into.byteOffset, 16), signed];
}

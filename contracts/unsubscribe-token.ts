/**
 * The one-click unsubscribe token: base64url(address hash ‖ HMAC-SHA256(secret, label ‖ hash)).
 * The hash is the recipient's address hash (private.do_not_email's key), never the address; whoever
 * lacks the secret cannot make a token for another hash. Web Crypto only: the same module runs in
 * the owner's command (Node) and in the Edge Function (Deno).
 */

const LABEL = new TextEncoder().encode('waitlist one-click unsubscribe\0');
const TAG_BYTES = 32;
/** An address hash's length (private.address_hash, HMAC-SHA256): private.unsubscribe takes this length only. */
export const ADDRESS_HASH_BYTES = 32;
/**
 * The token in both links of a test message (notify --to, --preview): it names nobody, and
 * readToken refuses it (too short), so the function answers it as any link no key made.
 */
export const TEST_TOKEN = 'test-message-names-nobody';
/** The secret's shortest length, in characters (e.g. `openssl rand -base64 32` gives 44). */
export const SECRET_MIN_LENGTH = 32;

export function unsubscribeKey(secret: string): Promise<CryptoKey> {
  if (secret.length < SECRET_MIN_LENGTH) {
    throw new Error(`UNSUBSCRIBE_SECRET is shorter than ${SECRET_MIN_LENGTH} characters.`);
  }
  const raw = new TextEncoder().encode(secret);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

const labelled = (hash: Uint8Array) => {
  const data = new Uint8Array(LABEL.length + hash.length);
  data.set(LABEL);
  data.set(hash, LABEL.length);
  return data;
};

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function makeToken(key: CryptoKey, hash: Uint8Array): Promise<string> {
  if (hash.length !== ADDRESS_HASH_BYTES) throw new Error('Not an address hash.');
  const tag = new Uint8Array(await crypto.subtle.sign('HMAC', key, labelled(hash)));
  const token = new Uint8Array(hash.length + TAG_BYTES);
  token.set(hash);
  token.set(tag, hash.length);
  return toBase64Url(token);
}

/** The address hash a token names, or null when it was not made with this key (altered, cut short, made up). */
export async function readToken(key: CryptoKey, token: string): Promise<Uint8Array | null> {
  const bytes = fromBase64Url(token);
  if (!bytes) return null;
  if (bytes.length !== ADDRESS_HASH_BYTES + TAG_BYTES) return null;
  const hash = bytes.slice(0, ADDRESS_HASH_BYTES);
  // verify compares in constant time.
  const valid = await crypto.subtle.verify('HMAC', key, bytes.slice(ADDRESS_HASH_BYTES), labelled(hash));
  return valid ? hash : null;
}

/**
 * A SCRAM-SHA-256 verifier as PostgreSQL stores it, made here so that only it reaches the server and
 * its log. No maintained npm package makes one (libpq does, in C): RFC 5802 §3 with RFC 7677's hash, as
 * PostgreSQL's scram_build_secret (4096 iterations, 16-byte salt); ASCII passwords only (ours are hex).
 * cli/tests/setup-live.test.ts logs in with the password against PostgreSQL itself.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096) {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('scramVerifier takes printable ASCII passwords only.');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256'); // SaltedPassword = Hi(password, salt, i)
  const hmac = (text: string) => createHmac('sha256', salted).update(text).digest();
  const storedKey = createHash('sha256').update(hmac('Client Key')).digest(); // StoredKey = H(ClientKey)
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(storedKey)}:${b64(hmac('Server Key'))}`;
}

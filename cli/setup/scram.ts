/**
 * A SCRAM-SHA-256 password verifier as PostgreSQL stores it (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`),
 * made here so that only the verifier, never the password, reaches the server and its log. No maintained
 * npm package makes one (libpq's PQencryptPasswordConn does, in C), so this follows RFC 5802 §3 with
 * RFC 7677's hash, as PostgreSQL's scram_build_secret does: 4096 iterations, a 16-byte random salt.
 * The password must be ASCII (SASLprep leaves it as it is): the generated ones are hex.
 * cli/tests/setup-roles.test.ts logs in with the password against PostgreSQL itself.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('scramVerifier takes printable ASCII passwords only.');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256'); // SaltedPassword = Hi(password, salt, i)
  const hmac = (text: string) => createHmac('sha256', salted).update(text).digest();
  const storedKey = createHash('sha256').update(hmac('Client Key')).digest(); // StoredKey = H(ClientKey)
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(storedKey)}:${b64(hmac('Server Key'))}`;
}

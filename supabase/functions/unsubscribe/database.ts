/**
 * The function's one statement: private.unsubscribe(hash), as the role of UNSUBSCRIBE_DB_URL
 * (waitlist_unsubscribe), over TLS verified against Supabase's root CA. Plain only over a Unix
 * socket or to loopback (tests). pg never sees the URL: it gets user, password, host, port and
 * database, so no parameter of the URL (sslmode, sslrootcert, sslcert…) can change the TLS.
 */
import pg from 'npm:pg@8.23.1';
import { parseSecretUrl, postgresEndpoint, unknownParameter } from '../../../contracts/secret-url.ts';
import { SUPABASE_CA } from '../../../contracts/supabase-ca.ts';

const NAME = 'UNSUBSCRIBE_DB_URL';
const FORM = 'postgresql://user:password@host:port/database';
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 5_000;

/** A Unix socket, or loopback unless UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION=1 (tests of the TLS path). */
const isLocal = (host: string) =>
  host.startsWith('/') ||
  (Deno.env.get('UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION') !== '1' && /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(host));

/**
 * The connection UNSUBSCRIBE_DB_URL names. Its only parameters may be host and port (a Unix
 * socket, in tests). Every error says what is wrong and shows no part of the URL.
 */
export function connection(value: string): pg.ClientConfig {
  const url = parseSecretUrl(NAME, value, ['postgresql:', 'postgres:']);
  if (unknownParameter(url, [])) {
    throw new Error(
      `${NAME} takes no parameters but host and port: the function always verifies TLS against ` +
        `Supabase's root CA, whatever sslmode, sslrootcert or sslcert would ask. Give ${FORM}.`,
    );
  }
  const endpoint = postgresEndpoint(NAME, url);
  return {
    ...endpoint,
    ssl: isLocal(endpoint.host) ? false : { ca: SUPABASE_CA, rejectUnauthorized: true },
    application_name: 'unsubscribe-function',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  };
}

/** Puts the hash on the do-not-email list ('unsubscribed'); a second call changes nothing. */
export async function unsubscribe(config: pg.ClientConfig, hash: Uint8Array): Promise<void> {
  const db = new pg.Client(config);
  await db.connect();
  try {
    await db.query('select private.unsubscribe($1)', [hash]);
  } finally {
    await db.end();
  }
}

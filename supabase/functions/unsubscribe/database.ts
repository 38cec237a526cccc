/**
 * The function's one statement: private.unsubscribe(hash), as the role of UNSUBSCRIBE_DB_URL
 * (waitlist_unsubscribe), over TLS verified against Supabase's root CA. Plain only over a Unix
 * socket or to loopback (tests). pg never sees the URL: it gets user, password, host, port and
 * database, so no parameter of the URL (sslmode, sslrootcert, sslcert…) can change the TLS.
 *
 * Each instance of the function keeps a pool of at most POOL_SIZE connections, shared by its
 * requests: a request waits for a free one rather than opening its own, so a flood of POSTs
 * costs the role POOL_SIZE connections, not one each (the role's limit is 20, for every instance
 * together: hosted, several instances may run). A connection idle for IDLE_MS is closed.
 */
import pg from 'npm:pg@8.23.1';
import { parseSecretUrl, postgresEndpoint, unknownParameter } from '../../../contracts/secret-url.ts';
import { SUPABASE_CA } from '../../../contracts/supabase-ca.ts';

const NAME = 'UNSUBSCRIBE_DB_URL';
const FORM = 'postgresql://user:password@host:port/database';
const POOL_SIZE = 4;
const IDLE_MS = 3_000;
/** Both the wait for a free connection and the making of a new one (pg.Pool's one setting). */
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 5_000;

/** A Unix socket, or loopback unless UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION=1 (tests of the TLS path). */
const isLocal = (host: string) =>
  host.startsWith('/') ||
  (Deno.env.get('UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION') !== '1' && /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(host));

/**
 * The connections UNSUBSCRIBE_DB_URL names. Its only parameters may be host and port (a Unix
 * socket, in tests). Every error says what is wrong and shows no part of the URL.
 */
export function connection(value: string): pg.PoolConfig {
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
    max: POOL_SIZE,
    idleTimeoutMillis: IDLE_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  };
}

/** The instance's pool. A connection lost while idle is dropped from it, and logged. */
export function openPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', (error) => console.error(`idle database connection lost: ${error.message}`));
  return pool;
}

/** Puts the hash on the do-not-email list ('unsubscribed'); a second call changes nothing. */
export async function unsubscribe(pool: pg.Pool, hash: Uint8Array): Promise<void> {
  await pool.query('select private.unsubscribe($1)', [hash]);
}

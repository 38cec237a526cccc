/**
 * The function's one statement: private.unsubscribe(hash), as the role of UNSUBSCRIBE_DB_URL
 * (waitlist_unsubscribe), over TLS verified against Supabase's root CA. Plain only over a Unix
 * socket or to loopback (tests).
 */
import pg from 'npm:pg@8.23.1';
import { SUPABASE_CA } from './supabase-ca.ts';

const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 5_000;

/** A Unix socket, or loopback unless UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION=1 (tests of the TLS path). */
const isLocal = (host: string) =>
  host.startsWith('/') ||
  (Deno.env.get('UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION') !== '1' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(host));

function config(value: string): pg.ClientConfig {
  const url = new URL(value);
  const host = url.searchParams.get('host') ?? url.hostname;
  for (const key of ['sslmode', 'sslrootcert', 'ssl']) url.searchParams.delete(key);
  return {
    connectionString: url.href,
    ssl: isLocal(host) ? false : { ca: SUPABASE_CA, rejectUnauthorized: true },
    application_name: 'unsubscribe-function',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  };
}

/** Puts the hash on the do-not-email list ('unsubscribed'); a second call changes nothing. */
export async function unsubscribe(databaseUrl: string, hash: Uint8Array): Promise<void> {
  const db = new pg.Client(config(databaseUrl));
  await db.connect();
  try {
    await db.query('select private.unsubscribe($1)', [hash]);
  } finally {
    await db.end();
  }
}

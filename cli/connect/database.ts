/**
 * The one way every command reaches the database: DATABASE_URL over TLS verified against Supabase's
 * root CA unless the URL names another (sslrootcert=…); plain or unverified only to loopback. pg never
 * sees the URL, so no other parameter and no environment (NODE_EXTRA_CA_CERTS, NODE_TLS_REJECT_UNAUTHORIZED)
 * can change the TLS decided here.
 */
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { SUPABASE_CA } from '../../contracts/supabase-ca.ts';
import { readText, UsageError } from '../terminal/terminal.ts';
import { endpoint as endpointOf, isLoopback, secretUrl, unknownParameter } from './secret-url.ts';

export const CONNECT_TIMEOUT_MS = 10_000;
/** A short query that takes longer means the connection is dead; long statements say so (LONG_QUERY). */
export const QUERY_TIMEOUT_MS = 30_000;
const LONG_QUERY_MS = 30 * 60_000;

/** A statement over the whole list: the short-query timeout does not apply to it. */
export const longQuery = (text: string, values: unknown[] = []) =>
  ({ text, values, query_timeout: LONG_QUERY_MS }) as pg.QueryConfig;

const MISSING =
  'Use the session pooler connection string of your Supabase project ' +
  '(Dashboard → Connect → Session pooler); see docs/operations.md.';

function tls(host: string, sslmode: string | null, rootcert: string | null): false | ConnectionOptions {
  const local = isLoopback(host);
  if ((sslmode === 'disable' || sslmode === 'no-verify') && !local) {
    const where = `a server that is not on this machine (${host})`;
    const risk = sslmode === 'disable' ? 'the list and the password would cross the network in clear' : 'unverified';
    throw new UsageError(`DATABASE_URL asks for sslmode=${sslmode} to ${where}: ${risk}. Remove it.`);
  }
  if (sslmode === 'disable') return false;
  if (local && !rootcert) return sslmode ? { rejectUnauthorized: false } : false;
  if (sslmode === 'no-verify') return { rejectUnauthorized: false };
  if (rootcert === 'system') return { rejectUnauthorized: true };
  // Supabase Root 2021 CA unless the URL names another (docs/operations.md: where it comes from, how to check it).
  return { ca: rootcert === null ? SUPABASE_CA : readText(rootcert, 'CA certificate'), rejectUnauthorized: true };
}

/** What DATABASE_URL may carry besides host and port; uselibpqcompat changes nothing (pg's own). */
const PARAMETERS = ['sslmode', 'sslrootcert', 'uselibpqcompat'];
const SSLMODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

function parameters(url: URL) {
  const unknown = unknownParameter(url, PARAMETERS);
  if (unknown) {
    throw new UsageError(
      `DATABASE_URL has ${unknown}, which the commands do not take: remove it. They take only host, port, ` +
        "sslmode and sslrootcert, and verify TLS against Supabase's root CA or sslrootcert's (docs/operations.md).",
    );
  }
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && !SSLMODES.includes(sslmode)) {
    throw new UsageError(`DATABASE_URL's sslmode must be one of ${SSLMODES.join(', ')}.`);
  }
  return { sslmode, rootcert: url.searchParams.get('sslrootcert') };
}

/** `longQueries`: no client-side limit on a statement (export's COPY of the whole list). */
export function databaseConfig({ longQueries = false } = {}): pg.ClientConfig {
  const url = secretUrl('DATABASE_URL', ['postgresql:', 'postgres:'], MISSING);
  const { sslmode, rootcert } = parameters(url);
  const endpoint = endpointOf('DATABASE_URL', url);
  return {
    ...endpoint,
    ssl: tls(endpoint.host, sslmode, rootcert),
    application_name: 'waitlist-cli',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(longQueries ? {} : { query_timeout: QUERY_TIMEOUT_MS }),
  };
}

/** Connects, runs `work`, and always disconnects. */
export async function withDatabase<T>(
  work: (db: pg.Client) => Promise<T>,
  options: { longQueries?: boolean } = {},
): Promise<T> {
  const db = new pg.Client(databaseConfig(options));
  // A lost connection: the query under way rejects with it, and so does any later one.
  db.on('error', () => undefined);
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** For commands that work on several connections at once (notify's senders). */
export function newPool(size: number): pg.Pool {
  const pool = new pg.Pool({ ...databaseConfig(), max: size });
  pool.on('error', () => undefined); // an idle connection lost: the next query on it says so
  return pool;
}

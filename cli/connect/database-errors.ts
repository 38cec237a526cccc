/** What a failed connection or query means for the owner, and what to do: the message replaces pg's. */
import { UsageError } from '../terminal/terminal.ts';
import { CONNECT_TIMEOUT_MS, QUERY_TIMEOUT_MS } from './database.ts';

/** The command supabase/README.md documents for applying the migrations. */
export const APPLY_MIGRATIONS = 'npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL" --yes';

const UNVERIFIED = new Set([
  ...'SELF_SIGNED_CERT_IN_CHAIN DEPTH_ZERO_SELF_SIGNED_CERT UNABLE_TO_VERIFY_LEAF_SIGNATURE CERT_UNTRUSTED'.split(' '),
  ...'UNABLE_TO_GET_ISSUER_CERT_LOCALLY UNABLE_TO_GET_ISSUER_CERT CERT_HAS_EXPIRED'.split(' '),
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
/** undefined_table, invalid_schema_name, undefined_function: the project's migrations are missing. */
const NOT_MIGRATED = new Set(['42P01', '3F000', '42883']);
const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET']);

/** The owner's version of a database error; anything not recognised is returned as it was. */
export function explainDatabaseError(error: unknown) {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && UNVERIFIED.has(code)) {
    return new Error(
      `The database server's certificate could not be verified (${message}): not connected. A Supabase ` +
        "database is verified with Supabase's root CA (contracts/supabase-ca.ts); for another server name " +
        'its CA in DATABASE_URL (?sslrootcert=/path/to/ca.crt).',
    );
  }
  if (code && NOT_MIGRATED.has(code)) {
    return new UsageError(
      `The database lacks this project's tables or functions (${message}): its migrations are not applied. ` +
        `Apply them: ${APPLY_MIGRATIONS} (supabase/README.md).`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new UsageError(`The database refused the login (${message}): check the user and password in DATABASE_URL.`);
  }
  // pg.Client's words, then pg.Pool's.
  if (/^timeout expired$|^timeout exceeded when trying to connect$/.test(message ?? '')) {
    return new Error(
      `The database did not answer within ${CONNECT_TIMEOUT_MS / 1000} s: check DATABASE_URL's host and port ` +
        '(the session pooler, port 5432) and your network.',
    );
  }
  if (message === 'Query read timeout') {
    return new Error(
      `The database stopped answering (no reply within ${QUERY_TIMEOUT_MS / 1000} s). Nothing more was done.`,
    );
  }
  if (message === 'The server does not support SSL connections') {
    return new Error('The database server offers no TLS: not connected (the password would go in clear).');
  }
  if (code && NETWORK.has(code)) return new Error(`Could not reach the database (${code}): check DATABASE_URL's host.`);
  return error;
}

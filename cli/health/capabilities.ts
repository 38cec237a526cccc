/**
 * What the sealing needs of the host, proven read-only: pgcrypto wraps to an RSA key and seals a test
 * address that the owner's code opens; the hour key tables are UNLOGGED.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { keysOf, openSeal } from '../seal/open.ts';
import { ok, problem, skipped, type Finding } from './finding.ts';

const ADDRESS = 'capability-check@example.com';
const HOUR_KEY_TABLES = ['private.hour_key_0', 'private.hour_key_1', 'private.hour_key_2'];
/** An RSA 2048 OpenPGP public key and subkey (pgcrypto encrypts to the subkey), made for this check; no private half kept. */
const TEST_KEY =
  'mQENBGkpwAABCACav6z4Z0EfT2JMljUpCn/P4ivR6rrRSJJElWTJfUWBVC3oI52+/49ksi4DPkACDHBUNN+qdbRpB7GOGD2e/3iV1rLFtuiId9RF84BrMzqybpj18wYITDYbvXip8YVsULOw2CcpTGOUx0uV7eh9JqWYR3mrADe7myC5zaUfqxpwWpBHXwSzfs2LRJtm7VQ+RpEsJM8Zr+jwBBabHxZWy+FSYDsV3FQ/BCCdymE1AjxV4SxYwcG999UL5C2+JghDpWTrb4GXtPpKVp7MrcW6FxCkKZHorf8NJm7/WQDTWKxYr+hRJO+qdQm5f6f6QuLohlmk01YtrcDkt7scil6i8L4hABEBAAG5AQ0EaSnAAAEIAJq/rPhnQR9PYkyWNSkKf8/iK9HqutFIkkSVZMl9RYFULegjnb7/j2SyLgM+QAIMcFQ036p1tGkHsY4YPZ7/eJXWssW26Ih31EXzgGszOrJumPXzBghMNhu9eKnxhWxQs7DYJylMY5THS5Xt6H0mpZhHeasAN7ubILnNpR+rGnBakEdfBLN+zYtEm2btVD5GkSwkzxmv6PAEFpsfFlbL4VJgOxXcVD8EIJ3KYTUCPFXhLFjBwb331QvkLb4mCEOlZOtvgZe0+kpWnsytxboXEKQpkeit/w0mbv9ZANNYrFiv6FEk76p1Cbl/p/pC4uiGWaTTVi2twOS3uxyKXqLwviEAEQEAAQ==';

async function roundTrip(db: pg.Client): Promise<string | undefined> {
  const hourKey = randomBytes(64);
  const { rows } = await db.query<{ seal: Buffer }>(
    `select extensions.pgp_pub_encrypt_bytea(extensions.gen_random_bytes(64), decode($1, 'base64')) as wrapped,
            private.seal_with(1, $2, 2, $3) as seal`,
    [TEST_KEY, hourKey, ADDRESS],
  );
  const opened = openSeal(keysOf(hourKey), { id: 2n, hourKeyId: 1n, seal: rows[0].seal }).toString('utf8');
  return opened === ADDRESS ? undefined : `the test seal opened to ${JSON.stringify(opened)}`;
}

export async function checkCapabilities(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ may: boolean; logged: string[] }>(
    `select has_function_privilege('private.seal_with(bigint, bytea, bigint, text)', 'execute') as may,
            array(select t from unnest($1::text[]) t where to_regclass(t) is null
                  or (select relpersistence from pg_class where oid = to_regclass(t)) <> 'u') as logged`,
    [HOUR_KEY_TABLES],
  );
  if (!rows[0].may) return skipped('capabilities', "DATABASE_URL's role may not seal: run health as the owner.");
  const faults = [
    rows[0].logged.length &&
      `${rows[0].logged.join(', ')} missing or not UNLOGGED: the hour keys held in clear would be written to the WAL`,
    await roundTrip(db).catch(
      (error: Error & { code?: string }) =>
        `pgcrypto cannot wrap or seal: ${`${error.code ?? ''} ${error.message}`.trim().replace(/\.$/, '')}`,
    ),
  ].filter(Boolean);
  if (faults.length) {
    return problem(
      'capabilities',
      `The sealing needs what this database refuses: ${faults.join('; ')}.`,
      'Push the migrations again (supabase/README.md); if it persists, the host lacks pgcrypto in schema ' +
        'extensions or unlogged tables: it cannot keep the list sealed.',
    );
  }
  return ok(
    'capabilities',
    'pgcrypto wraps to an RSA key and its seal of a test address opens here (gen_random_bytes, pgp_pub_encrypt_bytea, ' +
      `encrypt_iv, hmac); ${HOUR_KEY_TABLES.join(', ')} are UNLOGGED (never in the WAL).`,
  );
}

/**
 * What UNSUBSCRIBE_DB_URL may say: a URL that does not parse, or that asks for anything beyond
 * host and port (sslmode, sslrootcert, sslcert…), stops the function before it listens, with a
 * reason that never shows the password (nor the user or host); nothing reaches the database.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeToken, unsubscribeKey } from '../../contracts/unsubscribe-token';
import { useOwnDatabase } from './own-database';
import { makeCertificates, tlsFront, type Certificates } from './tls';
import { newSecret, postOneClick, startFunction } from './unsubscribe-function';

const db = useOwnDatabase('cli_unsubscribe_database_url');
const PASSWORD = 'Sec9ret9pass';
let certificates: Certificates;
let front: { port: number; close(): void };
beforeAll(async () => {
  certificates = makeCertificates(); // a CA of the test's own, valid for 127.0.0.1
  front = await tlsFront(`${db.info.host}/.s.PGSQL.${db.info.port}`, certificates);
}, 60_000);
afterAll(() => front?.close());

const doNotEmail = async () => (await db.owner.query('select * from private.do_not_email')).rows;

/**
 * Starts the function with this UNSUBSCRIBE_DB_URL and, if it listens, POSTs a valid one-click
 * for a new hash: whether it started, and all it printed and answered.
 */
async function run(databaseUrl: string, env: Record<string, string> = {}) {
  const secret = newSecret();
  const running = await startFunction(db.info, secret, { UNSUBSCRIBE_DB_URL: databaseUrl, ...env }).catch(
    (error: Error) => error.message,
  );
  if (typeof running === 'string') return { started: false, said: running };
  try {
    const token = await makeToken(await unsubscribeKey(secret), randomBytes(32));
    const response = await postOneClick(`${running.url}?token=${token}`);
    return { started: true, said: `${await response.text()}\n${running.output()}` };
  } finally {
    await running.stop();
  }
}

describe('UNSUBSCRIBE_DB_URL', () => {
  it('that does not parse stops the function, saying so without the password', async () => {
    const before = await doNotEmail();
    for (const [url, reason] of [
      [`postgresql://waitlist_unsubscribe:${PASSWORD}/x@pooler.example.com:5432/postgres`, /not a valid URL/],
      [`waitlist_unsubscribe:${PASSWORD} @pooler.example.com:5432/postgres`, /not a valid URL/],
      [`postgresql://waitlist_unsubscribe:%${PASSWORD}@pooler.example.com:5432/postgres`, /not a valid URL/],
      [`postgresql://waitlist_unsubscribe:12#${PASSWORD}@pooler.example.com:5432/postgres`, /contains a "#"/],
      [`postgresql://waitlist_unsubscribe:12?${PASSWORD}@pooler.example.com:5432/postgres`, /an "@" after its "\?"/],
      [`postgres:waitlist_unsubscribe:${PASSWORD}@pooler.example.com:5432/postgres`, /the "\/\/" .* is missing/],
      [`postgresql://waitlist_unsubscribe:12/${PASSWORD}@pooler.example.com:5432/postgres`, /one database/],
      [`https://waitlist_unsubscribe:${PASSWORD}@pooler.example.com:5432/postgres`, /must start with postgresql:/],
    ] as const) {
      const { started, said } = await run(url);
      expect(said, url).not.toContain(PASSWORD);
      expect(started, said).toBe(false);
      expect(said, url).not.toMatch(/waitlist_unsubscribe|pooler\.example\.com/); // nor the user, nor the host
      expect(said, url).toMatch(/UNSUBSCRIBE_DB_URL/);
      expect(said, url).toMatch(reason);
    }
    expect(await doNotEmail()).toEqual(before);
  }, 60_000);

  it('with any parameter but host and port stops the function: no URL loosens its verified TLS', async () => {
    const before = await doNotEmail();
    const files = dirname(certificates.caFile);
    const base = `postgresql://waitlist_unsubscribe:${PASSWORD}@127.0.0.1:${front.port}/${db.info.database}`;
    for (const parameters of [
      'sslmode=disable',
      'sslmode=no-verify',
      `sslrootcert=${certificates.caFile}`,
      `sslcert=${join(files, 'server.crt')}&sslkey=${join(files, 'server.key')}`,
      'ssl=0',
      'uselibpqcompat=true&sslmode=disable',
      'application_name=x',
    ]) {
      // The runtime trusts the front's CA (as it trusts any public one): only the pinned CA refuses it.
      const { started, said } = await run(`${base}?${parameters}`, {
        UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION: '1',
        DENO_CERT: certificates.caFile,
      });
      expect(said).not.toContain(PASSWORD);
      expect(started, `${parameters}: ${said}`).toBe(false);
      expect(said).not.toMatch(/waitlist_unsubscribe|127\.0\.0\.1/);
      expect(said).toContain('UNSUBSCRIBE_DB_URL takes no parameters but host and port');
    }
    expect(await doNotEmail()).toEqual(before);
  }, 60_000);
});

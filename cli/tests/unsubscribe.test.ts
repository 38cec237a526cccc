/**
 * The one-click unsubscribe Edge Function under Deno, against the throwaway PostgreSQL: a valid
 * token suppresses once; GET, altered, truncated, swapped and foreign tokens change nothing; any
 * origin reads the answers (the site's page); its role reads nothing of the list.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_HASH_BYTES, makeToken, unsubscribeKey } from '../../contracts/unsubscribe-token';
import { useOwnDatabase } from './own-database';
import { makeCertificates, tlsFront } from './tls';
import { seed } from './seed';
import { newSecret, postOneClick, startFunction, unsubscribeDbUrl, type RunningFunction } from './unsubscribe-function';

const db = useOwnDatabase('cli_unsubscribe');
let fn: RunningFunction;
let hashes: Buffer[];
beforeAll(async () => {
  await seed(db.owner, ['ada@example.com', 'grace@example.com', 'alan@example.com']);
  const { rows } = await db.owner.query<{ hash: Buffer }>(
    'select address_hash as hash from private.signup_addresses order by id',
  );
  hashes = rows.map((row) => row.hash);
  fn = await startFunction(db.info);
}, 60_000);
afterAll(() => fn?.stop());

const tokenFor = async (hash: Uint8Array, secret = fn.secret) => makeToken(await unsubscribeKey(secret), hash);
const oneClick = (token: string, body?: string) => postOneClick(`${fn.url}?token=${token}`, {}, body);

async function doNotEmail() {
  const { rows } = await db.owner.query<{ hash: Buffer; reason: string; added_at: Date }>(
    'select address_hash as hash, reason, added_at from private.do_not_email order by added_at, address_hash',
  );
  return rows;
}

describe('the unsubscribe function', () => {
  it('answers a GET with 200 text/plain instructions and changes nothing', async () => {
    const before = await doNotEmail();
    const response = await fetch(`${fn.url}?token=${await tokenFor(hashes[0])}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toMatch(
      /Unsubscribe button .* reply .* "unsubscribe"\. Opening this page changes nothing/,
    );
    expect(await doNotEmail()).toEqual(before);
  });

  it('puts the recipient of a valid one-click POST on the do-not-email list, once; twice is still 200', async () => {
    const token = await tokenFor(hashes[0]);
    const first = await oneClick(token);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Unsubscribed');
    const after = await doNotEmail();
    expect(after).toEqual([{ hash: hashes[0], reason: 'unsubscribed', added_at: expect.any(Date) }]);
    const again = await oneClick(token);
    expect(again.status).toBe(200);
    expect(await doNotEmail()).toEqual(after);
  });

  it('refuses altered, truncated, swapped and foreign tokens with 403 and changes nothing', async () => {
    const before = await doNotEmail();
    const token = await tokenFor(hashes[1]);
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const mine = Buffer.from(token, 'base64url');
    const swapped = Buffer.concat([hashes[2], mine.subarray(hashes[1].length)]).toString('base64url');
    const forged = [
      flip(token, 3), // the hash part
      flip(token, token.length - 3), // the MAC
      token.slice(0, -4),
      token.slice(0, 43), // the hash alone
      swapped, // another recipient's hash under this one's MAC
      await tokenFor(hashes[1], newSecret()), // made with another secret
      '',
      'not a token!',
    ];
    for (const bad of forged) {
      const response = await oneClick(encodeURIComponent(bad));
      expect(response.status, bad).toBe(403);
      expect(await response.text()).toContain('This unsubscribe link is not valid');
    }
    expect(await doNotEmail()).toEqual(before);
  });

  it('refuses a POST that is not List-Unsubscribe=One-Click (400), other methods (405), changing nothing', async () => {
    const before = await doNotEmail();
    const token = await tokenFor(hashes[1]);
    expect((await oneClick(token, 'List-Unsubscribe=Yes')).status).toBe(400);
    const json = await fetch(`${fn.url}?token=${token}`, { method: 'POST', body: '{"List-Unsubscribe":"One-Click"}' });
    expect(json.status).toBe(400);
    expect((await fetch(`${fn.url}?token=${token}`, { method: 'DELETE' })).status).toBe(405);
    expect(await doNotEmail()).toEqual(before);
  });

  it('lets the /unsubscribe page read each answer (CORS), answers a preflight, which changes nothing', async () => {
    const before = await doNotEmail();
    const fromThePage = { origin: 'https://site.example' };
    const preflight = await fetch(`${fn.url}?token=${await tokenFor(hashes[1])}`, {
      method: 'OPTIONS',
      headers: { ...fromThePage, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(await doNotEmail()).toEqual(before);
    const refused = await postOneClick(`${fn.url}?token=not-a-token`, fromThePage);
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([403, '*']);
    const done = await oneClick(await tokenFor(hashes[0]));
    expect([done.status, done.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
  });

  it('turns a bounced or an erased entry into an unsubscribe', async () => {
    await db.owner.query(
      `insert into private.do_not_email (address_hash, reason) values ($1, 'bounced'), ($2, 'erased')`,
      [hashes[1], hashes[2]],
    );
    expect((await oneClick(await tokenFor(hashes[1]))).status).toBe(200);
    expect((await oneClick(await tokenFor(hashes[2]))).status).toBe(200);
    const reasons = (await doNotEmail()).map(({ hash, reason }) => [hashes.findIndex((h) => h.equals(hash)), reason]);
    expect(reasons.sort()).toEqual([
      [0, 'unsubscribed'],
      [1, 'unsubscribed'],
      [2, 'unsubscribed'],
    ]);
  });

  // The answer depends on the token alone: else a link (forwarded, logged) would tell whether its address is still
  // listed (supabase/security.md).
  it('answers a valid token the same whether or not its hash is on the list: 200, the hash stored', async () => {
    const stranger = randomBytes(32); // no signup has this hash
    const member = await oneClick(await tokenFor(hashes[0]));
    const nonMember = await oneClick(await tokenFor(stranger));
    expect([member.status, nonMember.status]).toEqual([200, 200]);
    expect(await nonMember.text()).toBe(await member.text());
    expect((await doNotEmail()).find(({ hash }) => hash.equals(stranger))).toMatchObject({ reason: 'unsubscribed' });
  });

  it("stores only hashes of the links' length: private.unsubscribe refuses others, notify makes none", async () => {
    const { rows } = await db.owner.query("select octet_length(private.address_hash('ada@example.com')) as n");
    expect(rows[0].n).toBe(ADDRESS_HASH_BYTES);
    const role = new pg.Client({ connectionString: unsubscribeDbUrl(db.info) });
    await role.connect();
    try {
      const before = await doNotEmail();
      for (const length of [0, 1, 16, ADDRESS_HASH_BYTES - 1, ADDRESS_HASH_BYTES + 1, 64]) {
        await expect(role.query('select private.unsubscribe($1)', [randomBytes(length)]), `${length}`).rejects.toThrow(
          `private.unsubscribe takes a 32-byte address hash, not ${length} bytes`,
        );
        await expect(makeToken(await unsubscribeKey(fn.secret), randomBytes(length))).rejects.toThrow(
          'Not an address hash.',
        );
      }
      expect(await doNotEmail()).toEqual(before);
      await role.query('select private.unsubscribe($1)', [randomBytes(ADDRESS_HASH_BYTES)]);
      expect(await doNotEmail()).toHaveLength(before.length + 1);
    } finally {
      await role.end();
    }
  });

  it('connects as a role that may execute private.unsubscribe and read nothing of the list', async () => {
    const role = new pg.Client({ connectionString: unsubscribeDbUrl(db.info) });
    await role.connect();
    try {
      for (const sql of [
        'select count(*) from private.do_not_email',
        'select count(*) from private.signup_addresses',
        'select count(*) from public.waiting_list',
        'select count(*) from private.notify_journal',
        "select private.address_hash('ada@example.com')",
        "insert into private.do_not_email (address_hash, reason) values ('\\x00', 'suppressed')",
      ]) {
        await expect(role.query(sql), sql).rejects.toThrow(/permission denied/);
      }
    } finally {
      await role.end();
    }
  });

  it("refuses a certificate not Supabase's that Deno trusts: 503, nothing stored, no secret logged", async () => {
    const certificates = makeCertificates(); // a CA of the test's own, valid for 127.0.0.1
    const front = await tlsFront(`${db.info.host}/.s.PGSQL.${db.info.port}`, certificates);
    const password = 'not-a-real-password';
    const remote = await startFunction(db.info, fn.secret, {
      UNSUBSCRIBE_DB_URL: `postgresql://waitlist_unsubscribe:${password}@127.0.0.1:${front.port}/${db.info.database}`,
      UNSUBSCRIBE_NO_LOOPBACK_EXEMPTION: '1',
      DENO_CERT: certificates.caFile, // the pinned CA replaces the runtime's trust store
    });
    try {
      const before = await doNotEmail();
      // A hash not on the do-not-email list yet: reached, the database would have added it.
      const response = await postOneClick(`${remote.url}?token=${await tokenFor(randomBytes(32))}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('60');
      expect(await response.text()).toContain('could not be recorded right now');
      expect(await doNotEmail()).toEqual(before);
      expect(remote.output()).toMatch(/unsubscribe failed: .*certificate/i);
      expect(remote.output()).not.toContain(password);
      expect(remote.output()).not.toContain(fn.secret);
    } finally {
      await remote.stop();
      front.close();
    }
  });
});

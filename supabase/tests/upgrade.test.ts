/**
 * The new migrations over a database in use, as `db push` applies them to a deployed project:
 * every migration before one, then rows and the owner's commands, then the rest.
 */
import type { Client } from 'pg';
import { describe, expect, it } from 'vitest';
import { keysInit } from '../../cli/tests/keys-init';
import { waitlist } from '../../cli/tests/run-cli';
import { constraintNames } from '../../mocks/postgrest';
import { insertEmail, refusal } from '../harness/api-request';
import { connect, createEmptyDatabase, ownerUrl, type ConnectionInfo } from '../harness/database';
import { migrate } from '../harness/migrations';
import { sharedDatabase } from './shared-server';

const ADDRESS_RULE = '20261125100100_one_mailbox_one_address.sql';
const BROWSER_ORIGINS = '20261125100000_last_openings.sql';
const SEALED = '20261125200000_sealed_list.sql';
const SLOW_HASH = '20261126200100_slow_address_hash.sql';

/** A database `name` migrated up to (not including) `migration`; `work` gets its owner and DATABASE_URL. */
async function before(
  name: string,
  migration: string,
  work: (owner: Client, env: Record<string, string>, db: ConnectionInfo) => Promise<void>,
) {
  const db = await createEmptyDatabase(sharedDatabase(), name);
  await migrate(db, { before: migration });
  const owner = await connect(db, 'postgres');
  const env = { DATABASE_URL: ownerUrl(db) };
  try {
    await work(owner, env, db);
  } finally {
    await owner.end();
  }
}

const doNotEmail = async (owner: Client) =>
  (await owner.query('select encode(address_hash, $$hex$$) as hash, reason from private.do_not_email order by 1')).rows;

/** Stored hashes (hex) as the slow-hash migration carries them over, in the same order. */
async function carriedOver(owner: Client, hashes: string[]): Promise<string[]> {
  const { rows } = await owner.query<{ hash: string }>(
    `select encode(private.stretch_hash(s.secret, decode(u.h, 'hex')), 'hex') as hash
     from unnest($1::text[]) with ordinality u(h, i), private.owner_secret s order by u.i`,
    [hashes],
  );
  return rows.map((row) => row.hash);
}

describe('the address rule (no double quote, no final dot) over existing signups', () => {
  it('keeps every row as typed, every do-not-email entry, and the same export; refuses new ones', async () => {
    await before('upgrade_addresses', ADDRESS_RULE, async (owner, env, db) => {
      const signups = [
        'ada@example.com',
        '"ada"@example.com',
        'ada@example.com.',
        '"bob"@example.com',
        'carol@example.com.',
      ];
      for (const email of signups) await owner.query('insert into public.waiting_list (email) values ($1)', [email]);
      // What suppress and erase did then (today's commands need today's schema: they run after the push).
      await owner.query(
        `insert into private.do_not_email (address_hash, reason)
         values (private.address_hash('"ada"@example.com'), 'unsubscribed'), (private.address_hash('ada@example.com.'), 'bounced'),
                (private.address_hash('carol@example.com.'), 'erased')`,
      );
      await owner.query(`delete from public.waiting_list where email = 'carol@example.com.'`);
      const suppressions = await doNotEmail(owner);

      await migrate(db, { from: ADDRESS_RULE });

      const hashes = await carriedOver(
        owner,
        suppressions.map((row) => row.hash),
      );
      const expected = suppressions.map((row, i) => ({ hash: hashes[i], reason: row.reason }));
      expect(await doNotEmail(owner)).toEqual(expected.sort((a, b) => (a.hash < b.hash ? -1 : 1)));
      const exported = (await waitlist(['export'], env)).stdout;
      expect(exported).toMatch(/^email,signed_up_at\r\nada@example\.com,\S+\r\n"""bob""@example\.com",\S+\r\n$/);
      const { rows } = await owner.query(
        'select email from public.waiting_list where not private.email_format_ok(email) order by id',
      );
      expect(rows.map((row) => row.email)).toEqual(['"ada"@example.com', 'ada@example.com.', '"bob"@example.com']);
      const { rows: check } = await owner.query(`select convalidated from pg_constraint where conname = $1`, [
        constraintNames.format,
      ]);
      expect(check).toEqual([{ convalidated: false }]);

      const api = await connect(db, 'authenticator');
      try {
        for (const email of ['"carol"@example.com', 'carol@example.com.', '"dave"@example.com']) {
          expect(await refusal(insertEmail(api, email)), email).toMatchObject({
            code: '23514',
            constraint: constraintNames.format,
          });
        }
        await insertEmail(api, 'carol@example.com');
      } finally {
        await api.end();
      }
    });
  });
});

describe('origins only as browsers send them, over stored origins', () => {
  it('rewrites a stored default port to the origin without it, once', async () => {
    await before('upgrade_origins', BROWSER_ORIGINS, async (owner, _env, db) => {
      for (const origin of [
        'https://site.example:443',
        'http://localhost:80',
        'http://localhost',
        'https://a.example:8443',
      ]) {
        await owner.query('insert into private.allowed_origins values ($1)', [origin]);
      }
      await migrate(db, { from: BROWSER_ORIGINS });
      const { rows } = await owner.query('select origin from private.allowed_origins order by 1');
      expect(rows.map((row) => row.origin)).toEqual([
        'http://localhost',
        'https://a.example:8443',
        'https://site.example',
      ]);
    });
  });

  it('stops at a stored non-ASCII host, naming the form to store', async () => {
    await before('upgrade_origins_idn', BROWSER_ORIGINS, async (owner, _env, db) => {
      await owner.query(`insert into private.allowed_origins values ('https://bücher.example')`);
      await expect(migrate(db, { from: BROWSER_ORIGINS })).rejects.toThrow(
        `node -p "new URL('https://bücher.example').origin"`,
      );
      // The migration rolled back whole: the guard is as it was.
      const { rows } = await owner.query(`select to_regprocedure('private.request_headers()') as fn`);
      expect(rows).toEqual([{ fn: null }]);
    });
  });
});

describe('sealing over a database in use', () => {
  it('keeps every signup, keyed hash and do-not-email entry; keys init then seals them all', async () => {
    await before('upgrade_sealing', SEALED, async (owner, env, db) => {
      const signups = ['Ada@Example.com', 'jo\u0308rg@example.de', 'bob@example.com'];
      for (const email of signups) await owner.query('insert into public.waiting_list (email) values ($1)', [email]);
      await owner.query(
        `insert into private.do_not_email (address_hash, reason) values (private.address_hash('bob@example.com'), 'unsubscribed')`,
      );
      const hashes = async () =>
        (await owner.query(`select encode(address_hash, 'hex') as hash from private.waiting_list_keys order by id`))
          .rows;
      const kept = await hashes();

      await migrate(db, { from: SEALED });

      expect(await hashes()).toEqual(
        (
          await carriedOver(
            owner,
            kept.map((row) => row.hash),
          )
        ).map((hash) => ({ hash })),
      );
      const api = await connect(db, 'authenticator');
      try {
        expect(await refusal(insertEmail(api, 'ADA@example.com'))).toMatchObject({
          code: '23505',
          message: `duplicate key value violates unique constraint "${constraintNames.unique}"`,
        });
        await insertEmail(api, 'carol@example.com');
      } finally {
        await api.end();
      }
      const init = await keysInit(env);
      expect(init.result.code, init.result.stderr).toBe(0);
      const { rows } = await owner.query('select count(*)::int as n from public.waiting_list where email is not null');
      expect(rows[0].n).toBe(0);
      const exported = (await waitlist(['export'], { ...env, WAITLIST_OWNER_KEY_FILE: init.keyFile })).stdout;
      expect(exported.split('\r\n').map((line) => line.split(',')[0])).toEqual([
        'email',
        'Ada@Example.com',
        'jo\u0308rg@example.de',
        'carol@example.com',
        '',
      ]);
    });
  });
});

describe('the slow keyed hash over a list in use', () => {
  it('carries every stored hash over: duplicates, do-not-email entries and the journal still match', async () => {
    await before('upgrade_slow_hash', SLOW_HASH, async (owner, _env, db) => {
      await owner.query(`insert into public.waiting_list (email) values ('Ada@Example.com'), ('bob@example.com')`);
      await owner.query(
        `insert into private.do_not_email (address_hash, reason) values (private.address_hash('BOB@example.com'), 'unsubscribed')`,
      );
      await owner.query(
        `insert into private.notify_journal (campaign, address_hash) values ('launch', private.address_hash('ada@example.com'))`,
      );
      await migrate(db, { from: SLOW_HASH });

      const { rows } = await owner.query(
        `select (select count(*)::int from private.waiting_list_keys where address_hash = private.address_hash('ADA@example.com')) as listed,
                (select count(*)::int from private.do_not_email where address_hash = private.address_hash('bob@example.com')) as suppressed,
                (select count(*)::int from private.notify_journal where address_hash = private.address_hash('Ada@example.com')) as journal,
                (select count(*)::int from private.mailable_signups) as mailable`,
      );
      expect(rows[0]).toEqual({ listed: 1, suppressed: 1, journal: 1, mailable: 1 });
      const api = await connect(db, 'authenticator');
      try {
        expect(await refusal(insertEmail(api, 'ada@EXAMPLE.com'))).toMatchObject({ code: '23505' });
      } finally {
        await api.end();
      }
    });
  });
});

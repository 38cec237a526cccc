/**
 * The database and the client hold email addresses to one rule: both are tested against the
 * same table of examples (src/test/email-examples.ts).
 */
import { describe, expect, it } from 'vitest';
import { constraintNames } from '../../mocks/postgrest';
import { checkEmail, EMAIL_SHAPE } from '../../contracts/email.ts';
import { emailExamples } from '../../src/test/email-examples';
import { insertEmail, refusal } from '../harness/api-request';
import { connect } from '../harness/database';
import { storedAs } from '../harness/sealed';
import { useDatabase } from './use-database';
import { sharedOwnerKey } from './shared-server';

const db = useDatabase();
/** Each address is tried in its own request and rolled back, so examples cannot collide. */
const tryEmail = (email: string | null) => insertEmail(db.api, email, { keep: false });
const violation = (constraint: string) => ({
  code: '23514',
  message: `new row for relation "waiting_list" violates check constraint "${constraint}"`,
  detail: undefined,
});

describe('the database accepts what the client accepts', () => {
  it.each(emailExamples.filter((example) => example.valid))('$why: $input', async ({ input }) => {
    const check = checkEmail(input);
    if (!check.ok) throw new Error(`the client refuses ${input}`);
    expect((await tryEmail(check.email)).rows).toEqual([{ inserted: '1' }]);
  });
});

describe('the database refuses what the client refuses, sent raw', () => {
  it.each(emailExamples.filter((example) => !example.valid))('$why: $input', async ({ input }) => {
    // Well-shaped but refused by the client means too long; the database names which check failed.
    const broken = EMAIL_SHAPE.test(input) ? constraintNames.length : constraintNames.format;
    expect(await refusal(tryEmail(input))).toMatchObject(violation(broken));
  });

  it('refuses an empty email as malformed', async () => {
    expect(await refusal(tryEmail(''))).toMatchObject(violation(constraintNames.format));
  });

  it('refuses 255 characters as too long, and counts characters, not bytes', async () => {
    expect(await refusal(tryEmail(`${'a'.repeat(243)}@example.com`))).toMatchObject(violation(constraintNames.length));
    expect((await tryEmail(`${'ü'.repeat(242)}@example.com`)).rows).toHaveLength(1);
  });
});

describe('the same rule, character by character', () => {
  it("refuses exactly the characters the client refuses (JavaScript's \\s, @, Cc, Cf), in all of Unicode", async () => {
    const codePoints = Array.from({ length: 0x110000 - 1 }, (_, i) => i + 1).filter((c) => c < 0xd800 || c > 0xdfff);
    const probe = (c: number) => `a${String.fromCodePoint(c)}a@b.co`;
    const clientRefuses = codePoints.filter((c) => !EMAIL_SHAPE.test(probe(c)));

    const [format] = (
      await db.owner.query(`select pg_get_expr(conbin, conrelid) as expr from pg_constraint where conname = $1`, [
        constraintNames.format,
      ])
    ).rows;
    const databaseRefuses = await db.owner.query(
      `select c from generate_series(1, 1114111) c, lateral (select 'a' || chr(c) || 'a@b.co' as email) probe
       where c not between 55296 and 57343 and not (${format.expr}) order by c`,
    );
    expect(databaseRefuses.rows.map((row) => row.c)).toEqual(clientRefuses);
    expect(clientRefuses).toContain(0x3000);
    expect(clientRefuses).toContain(0x202e);
  });

  it('refuses each assigned Cc, Cf, default-ignorable or blank character via the API, as the client does', async () => {
    const invisible = /[\u{16FE4}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]/u;
    const unassigned = /\p{Cn}/u;
    // U+0000 cannot be stored in text at all (PostgreSQL answers 22P05 / 400 before any check).
    const codePoints = Array.from({ length: 0x110000 - 1 }, (_, i) => i + 1)
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .filter((c) => invisible.test(String.fromCodePoint(c)) && !unassigned.test(String.fromCodePoint(c)));
    expect(codePoints.length).toBeGreaterThan(400);
    const probe = (c: number) => `ad${String.fromCodePoint(c)}a@example.com`;
    expect(codePoints.filter((c) => checkEmail(probe(c)).ok)).toEqual([]);
    for (const c of codePoints) expect(checkEmail(probe(c)), c.toString(16)).toEqual({ ok: false, problem: 'invalid' });

    const accepted: number[] = [];
    const BATCH = 32; // concurrent requests, each on its own connection, each rolled back
    const clients = await Promise.all(Array.from({ length: 4 }, () => connect(db.info, 'authenticator')));
    try {
      for (let i = 0; i < codePoints.length; i += BATCH) {
        const batch = codePoints.slice(i, i + BATCH);
        await Promise.all(
          clients.map(async (client, k) => {
            for (const c of batch.filter((_, j) => j % clients.length === k)) {
              const error = await refusal(insertEmail(client, probe(c), { keep: false })).catch(() => null);
              if (!error) accepted.push(c);
              else expect(error, c.toString(16)).toMatchObject(violation(constraintNames.format));
            }
          }),
        );
      }
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    expect(accepted).toEqual([]);
  });

  it('folds Unicode letter case for duplicates', async () => {
    await insertEmail(db.api, 'jörg@bücher.de');
    expect(await refusal(insertEmail(db.api, 'JÖRG@BÜCHER.DE'))).toMatchObject({ code: '23505' });
  });

  it('keys duplicates on NFC: a precomposed and a decomposed á are one address, stored as typed', async () => {
    const composed = 'ad\u00e1@example.com';
    const decomposed = 'ada\u0301@example.com';
    await insertEmail(db.api, decomposed);
    expect(await refusal(insertEmail(db.api, composed))).toMatchObject({ code: '23505' });
    expect(await refusal(insertEmail(db.api, composed.toUpperCase()))).toMatchObject({ code: '23505' });
    expect(await storedAs(db.owner, composed, sharedOwnerKey())).toEqual([decomposed]);
  });
});

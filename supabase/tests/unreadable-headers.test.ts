/**
 * Headers the guard cannot read are refused, not taken for "no headers": one escaped NUL anywhere
 * in PostgREST's request.headers ("\u0000", which no PostgreSQL text can hold) once made every
 * header read as missing, so the Origin check was skipped and the signup counted in 'unknown'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, refusal } from '../harness/api-request';
import { countsOf, restoreClock, setClock } from './guard';
import { postgrestAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
const SITE = 'https://coming-soon.example';
const NUL = { 'x-anything': '\u0000' };
let tag = 0;
const email = () => `unreadable-${(tag += 1)}@example.com`;

beforeAll(async () => {
  await setClock(db.owner, '2099-08-01T10:00:00Z');
  await db.owner.query('insert into private.allowed_origins values ($1)', [SITE]);
});
afterAll(async () => {
  await db.owner.query('delete from private.allowed_origins');
  await restoreClock(db.owner);
});

describe('request headers the database cannot read', () => {
  it('refuse a foreign page with 400 PT400, never let it sign up', async () => {
    for (let i = 0; i < 3; i += 1) {
      const error = await refusal(
        insertEmail(db.api, email(), { headers: { origin: 'https://evil.example', ...NUL } }),
      );
      expect(postgrestAnswer(error)).toEqual(answers.unreadableHeaders);
    }
    const { rows } = await db.owner.query(
      `select count(*)::int as n from public.waiting_list where email like 'unreadable-%'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("refuse the site's own page and a request without Origin alike, and count nothing in 'unknown'", async () => {
    const sets: Record<string, string>[] = [
      { origin: SITE, ...NUL },
      NUL,
      { prefer: 'return=minimal', 'x-note': 'a\u0000b' },
    ];
    for (const headers of sets) {
      const error = await refusal(insertEmail(db.api, email(), { clientIp: null, headers }));
      expect(postgrestAnswer(error)).toEqual(answers.unreadableHeaders);
    }
    expect(await countsOf(db.owner, 'unknown')).toEqual({ tenMinutes: 0, day: 0 });
  });

  it('leave a request whose headers hold no NUL to the usual checks', async () => {
    await insertEmail(db.api, email(), { headers: { origin: SITE, 'x-anything': '\u0001 é \\u0000' } });
    const error = await refusal(insertEmail(db.api, email(), { headers: { origin: 'https://evil.example' } }));
    expect(postgrestAnswer(error)).toEqual(answers.foreignOrigin);
  });
});

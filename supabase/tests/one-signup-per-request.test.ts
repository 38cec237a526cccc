/**
 * A request reveals no more than the product's own answer for the one address it adds: an array
 * cannot probe whether an address is listed, and a single listed address still gets 409 / 23505.
 */
import { describe, expect, it } from 'vitest';
import { answers, constraintNames } from '../../mocks/postgrest';
import { apiRequest, insertEmail, POSTGREST_INSERT, type ApiRole } from '../harness/api-request';
import { countsOf, restoreClock, setClock } from './guard';
import { answerOf, CREATED, type HttpAnswer } from '../harness/postgrest-answer';
import { storedAs } from '../harness/sealed';
import { useDatabase } from './use-database';
import { sharedOwnerKey } from './shared-server';

const db = useDatabase();
const LISTED = 'taken@example.com';

const ONE_PER_REQUEST: HttpAnswer = {
  status: 400,
  body: { code: 'PT400', details: null, hint: 'Send one object, not an array.', message: 'One signup per request.' },
};

/** What PostgREST would answer to POST /waiting_list with this JSON body. */
const answerTo = (body: unknown, role: ApiRole = 'anon', clientIp = '203.0.113.200') =>
  answerOf(apiRequest(db.api, POSTGREST_INSERT, [JSON.stringify(body)], { role, clientIp }), role);

/** Signups of this address in any letter case (found by its address hash: the list is sealed). */
const listed = async (email: string) =>
  (
    await db.owner.query(
      'select count(*)::int as n from private.signup_addresses where address_hash = private.address_hash($1)',
      [email],
    )
  ).rows[0].n;
/** The id of the one signup of this address. */
const SIGNUP = '(select id from private.signup_addresses where address_hash = private.address_hash($1))';

describe.each<ApiRole>(['anon', 'authenticated'])('an array posted as %s', (role) => {
  it.each([
    [
      '[listed, not-an-email] answers as [unlisted, not-an-email]',
      [LISTED, 'not-an-email'],
      ['probe-1@example.com', 'not-an-email'],
    ],
    [
      '[listed, new] answers as [new, new]',
      [LISTED, 'probe-2@example.com'],
      ['probe-3@example.com', 'probe-4@example.com'],
    ],
    ['[LISTED in capitals, x] answers as [unlisted, x]', [LISTED.toUpperCase(), 'x'], ['probe-5@example.com', 'x']],
    ['[listed, listed] answers as [new, listed]', [LISTED, LISTED], ['probe-6@example.com', LISTED]],
  ])('%s: one refusal for both, nothing inserted', async (_, withListed, withoutListed) => {
    const a = await answerTo(
      withListed.map((email) => ({ email })),
      role,
    );
    const b = await answerTo(
      withoutListed.map((email) => ({ email })),
      role,
    );
    expect(a).toEqual(ONE_PER_REQUEST);
    expect(b).toEqual(ONE_PER_REQUEST);
    for (const email of withoutListed.filter((e) => e !== LISTED)) expect(await listed(email)).toBe(0);
  });

  it("[not-an-email, listed] answers as [not-an-email, unlisted]: the first row's own check", async () => {
    const a = await answerTo([{ email: 'not-an-email' }, { email: LISTED }], role);
    const b = await answerTo([{ email: 'not-an-email' }, { email: 'probe-7@example.com' }], role);
    expect(a).toEqual(answers.badFormat);
    expect(b).toEqual(answers.badFormat);
  });

  it('a single listed address still answers 409, 23505, without details (the "Already Registered" toast)', async () => {
    expect(await answerTo({ email: LISTED.toUpperCase() }, role)).toEqual(answers.duplicate);
    expect(await answerTo([{ email: LISTED }], role)).toEqual(answers.duplicate);
    expect(answers.duplicate.body.message).toContain(`"${constraintNames.unique}"`);
  });

  it('an array of one new address is a signup', async () => {
    expect(await answerTo([{ email: `${role}-single-array@example.com` }], role)).toEqual(CREATED);
  });
});

describe('refused arrays', () => {
  it('are not counted by the abuse guard', async () => {
    await setClock(db.owner, '2099-03-01T10:00:00Z');
    try {
      await answerTo([{ email: 'probe-8@example.com' }, { email: 'probe-9@example.com' }], 'anon', '203.0.113.201');
      expect(await countsOf(db.owner, '203.0.113.201/32')).toEqual({ tenMinutes: 0, day: 0 });
    } finally {
      await restoreClock(db.owner);
    }
  });

  it('do not stop the next request on the same connection', async () => {
    await answerTo([{ email: 'probe-10@example.com' }, { email: 'probe-11@example.com' }]);
    await insertEmail(db.api, 'probe-12@example.com');
    expect(await listed('probe-12@example.com')).toBe(1);
  });
});

describe('the owner', () => {
  it('imports many rows in one statement; a duplicate in an import is refused as 23505', async () => {
    await db.owner.query(
      `insert into public.waiting_list (email) values ('bulk-a@example.com'), ('bulk-b@example.com')`,
    );
    const error = await db.owner
      .query(`insert into public.waiting_list (email) values ('bulk-c@example.com'), ('BULK-A@example.com')`)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: '23505',
      message: `duplicate key value violates unique constraint "${constraintNames.unique}"`,
    });
    expect(await listed('bulk-c@example.com')).toBe(0);
  });

  it('keeps the duplicate check in step when changing or deleting an address', async () => {
    await db.owner.query(
      `insert into public.waiting_list (email) values ('edit-a@example.com'), ('edit-b@example.com')`,
    );
    const clash = await db.owner
      .query(`update public.waiting_list set email = 'Edit-A@example.com' where id = ${SIGNUP}`, ['edit-b@example.com'])
      .catch((e: unknown) => e);
    expect(clash).toMatchObject({ code: '23505' });
    await db.owner.query(`update public.waiting_list set email = 'Edit-C@example.com' where id = ${SIGNUP}`, [
      'edit-b@example.com',
    ]);
    expect(await storedAs(db.owner, 'edit-c@example.com', sharedOwnerKey())).toEqual(['Edit-C@example.com']);
    await db.owner.query(`delete from public.waiting_list where id = ${SIGNUP}`, ['edit-a@example.com']);
    await insertEmail(db.api, 'EDIT-A@example.com'); // freed by the delete
    expect((await insertEmail(db.api, 'edit-b@example.com')).rows).toEqual([{ inserted: '1' }]); // freed by the update
    // Every signup has its address row, and is either sealed or (the seed's, never here) plaintext.
    const { rows } = await db.owner.query(
      `select count(*)::int as n from public.waiting_list w full join private.signup_addresses a using (id)
       where a.id is null or w.id is null or (w.email is null) = (a.seal is null)`,
    );
    expect(rows[0].n).toBe(0);
  });
});

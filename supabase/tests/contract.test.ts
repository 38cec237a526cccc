/**
 * The mock backend answers exactly what the real stack answers. For each situation the mock acts
 * out, the real database's error (raised as anon) goes through PostgREST's mapping, and the MSW
 * handler must give the same status and body.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allowedOrigins, magicAddresses } from '../../mocks/handlers';
import { server } from '../../mocks/node';
import { answers } from '../../mocks/postgrest';
import { waitlistStore } from '../../mocks/waitlist-store';
import { apiRequest, enterRequest, insertEmail } from '../harness/api-request';
import { restoreClock, restoreShippedLimits, setClock, setLimit } from './guard';
import { answerOf, CREATED, type HttpAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
const MOCK_URL = 'http://127.0.0.1:54321/rest/v1/waiting_list';
const LIMITED_NETWORK = '203.0.113.99';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => waitlistStore.reset());
afterAll(() => server.close());

/** What the browser's supabase-js call gets from the mock. */
async function mockAnswer(email: string | null, origin?: string, headers = {}): Promise<HttpAnswer> {
  const response = await fetch(MOCK_URL, {
    method: 'POST',
    headers: {
      apikey: 'mock-publishable-key',
      'Content-Type': 'application/json',
      'Content-Profile': 'public',
      ...(origin ? { Origin: origin } : {}),
      ...headers,
    },
    body: JSON.stringify({ email }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** The real policy refusing a row: a grant wide enough to try backdating, inside a rolled-back transaction. */
async function backdatedSignup(email: string) {
  await db.owner.query('begin');
  try {
    await db.owner.query('grant insert (created_at) on public.waiting_list to anon');
    await enterRequest(db.owner, { role: 'anon' });
    await db.owner.query(`insert into public.waiting_list (email, created_at) values ($1, now() - interval '1 day')`, [
      email,
    ]);
  } finally {
    await db.owner.query('rollback');
  }
}

/** A small limit set with the documented statement, on a stopped clock, so the test is quick and exact. */
async function signUpOverTheLimit(email: string) {
  const context = { clientIp: LIMITED_NETWORK };
  await setClock(db.owner, '2099-02-01T10:00:00Z');
  await setLimit(db.owner, 'ipv4', 'per_10_minutes', 3);
  try {
    for (let i = 0; i < 3; i += 1) await insertEmail(db.api, `crowd-${i}@example.com`, context);
    await insertEmail(db.api, email, context);
  } finally {
    await restoreShippedLimits(db.owner);
    await restoreClock(db.owner);
  }
}

const long255 = `${'a'.repeat(243)}@example.com`;
const insert = (email: string | null) => insertEmail(db.api, email);

const situations: {
  name: string;
  email: string | null;
  expected: HttpAnswer;
  real: (email: string | null) => Promise<unknown>;
}[] = [
  { name: 'added', email: 'contract-new@example.com', expected: CREATED, real: insert },
  { name: 'duplicate (other case)', email: 'Taken@Example.COM', expected: answers.duplicate, real: insert },
  { name: 'refused shape', email: 'ada@example', expected: answers.badFormat, real: insert },
  { name: 'refused length', email: long255, expected: answers.tooLong, real: insert },
  {
    name: 'refused shape and length: the shape is named',
    email: 'a'.repeat(300),
    expected: answers.badFormat,
    real: insert,
  },
  { name: 'refused: no email', email: null, expected: answers.nullEmail, real: insert },
  {
    name: 'refused by policy',
    email: magicAddresses.denied,
    expected: answers.deniedByPolicy,
    real: (email) => backdatedSignup(String(email)),
  },
  {
    name: 'over the abuse limit',
    email: magicAddresses.limited,
    expected: answers.overSignupLimit,
    real: (email) => signUpOverTheLimit(String(email)),
  },
];

describe('the mock answers as Supabase does', () => {
  it.each(situations)('$name', async ({ email, expected, real }) => {
    const actual = await answerOf(real(email));
    expect(actual).toEqual(expected);
    expect(await mockAnswer(email)).toEqual(actual);
  });
});

describe('the mock answers a page on another website as Supabase does', () => {
  const SITE = 'https://coming-soon.example';
  beforeAll(async () => {
    await db.owner.query('insert into private.allowed_origins (origin) values ($1)', [SITE]);
    allowedOrigins.add(SITE);
  });
  afterAll(async () => {
    await db.owner.query('delete from private.allowed_origins');
    allowedOrigins.clear();
  });

  it.each([
    ['a foreign origin is refused', 'https://evil.example', 'contract-foreign@example.com', answers.foreignOrigin],
    ["the site's own origin signs up", SITE, 'contract-own-site@example.com', CREATED],
    ['no Origin (a server) signs up', undefined, 'contract-no-origin@example.com', CREATED],
  ])('%s', async (_, origin, email, expected) => {
    const actual = await answerOf(insertEmail(db.api, email, { headers: origin ? { origin } : {} }));
    expect(actual).toEqual(expected);
    expect(await mockAnswer(email, origin)).toEqual(actual);
  });
});

describe('headers the database cannot read (an escaped NUL in request.headers)', () => {
  it('get 400 PT400, the answer the mock names; no browser can send one to the mock', async () => {
    const headers = { 'x-anything': '\u0000' };
    const actual = await answerOf(insertEmail(db.api, 'contract-nul@example.com', { headers }));
    expect(actual).toEqual(answers.unreadableHeaders);
    // The Fetch standard forbids a NUL in a header value: the request never leaves the page.
    await expect(mockAnswer('contract-nul@example.com', undefined, headers)).rejects.toThrow(TypeError);
  });
});

describe('a read of the list with the public key', () => {
  it('is refused with 401 42501, by the real stack and by the mock', async () => {
    const actual = await answerOf(apiRequest(db.api, 'select * from public.waiting_list limit 1', [], { keep: false }));
    expect(actual).toEqual(answers.readDenied);
    const response = await fetch(`${MOCK_URL}?select=*&limit=1`, { headers: { apikey: 'mock-publishable-key' } });
    expect({ status: response.status, body: await response.json() }).toEqual(actual);
  });
});

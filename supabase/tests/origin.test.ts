/**
 * No other website can fill the list through its visitors' browsers: a request whose Origin is not
 * one of private.allowed_origins is refused; with the table empty every origin is allowed; a
 * request without Origin (a server, curl) is judged by the limits alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answers } from '../../mocks/postgrest';
import { insertEmail, refusal } from '../harness/api-request';
import { countsOf, restoreClock, setClock } from './guard';
import { postgrestAnswer } from '../harness/postgrest-answer';
import { useDatabase } from './use-database';

const db = useDatabase();
const SITE = 'https://coming-soon.example';
let tag = 0;
const email = () => `origin-${(tag += 1)}@example.com`;
const from = (origin: string | undefined, clientIp = '203.0.113.150') =>
  insertEmail(db.api, email(), { clientIp, headers: origin === undefined ? {} : { origin } });

afterEach(async () => {
  await db.owner.query('delete from private.allowed_origins');
  await restoreClock(db.owner);
});

describe('the allowed origins', () => {
  it('allow every origin while the table is empty', async () => {
    for (const origin of [SITE, 'https://evil.example', 'null', undefined]) await from(origin);
  });

  it("once set, admit the site's own pages and requests without Origin; refuse other pages, 403 PT403", async () => {
    await setClock(db.owner, '2099-04-01T10:00:00Z');
    await db.owner.query(`insert into private.allowed_origins values ('https://coming-soon.example')`);
    await from(SITE);
    await from(undefined);
    for (const origin of [
      'https://evil.example',
      'null',
      'http://coming-soon.example',
      `${SITE}:8443`,
      `${SITE}.evil`,
    ]) {
      expect(postgrestAnswer(await refusal(from(origin)))).toEqual(answers.foreignOrigin);
    }
    // Refused before counting: the foreign pages used none of the network's quota.
    expect(await countsOf(db.owner, '203.0.113.150/32')).toEqual({ tenMinutes: 2, day: 2 });
  });

  it('admit a second origin (a preview or local one) added with one statement', async () => {
    await db.owner.query(`insert into private.allowed_origins values ('https://coming-soon.example')`);
    await refusal(from('http://localhost:5173'));
    await db.owner.query(`insert into private.allowed_origins values ('http://localhost:5173')`);
    await from('http://localhost:5173');
  });

  it('hold origins only as a browser sends them: scheme://host[:port], lower case, no path', async () => {
    for (const bad of ['https://coming-soon.example/', 'https://Coming-Soon.example', 'coming-soon.example', '*']) {
      expect(
        await refusal(db.owner.query('insert into private.allowed_origins values ($1)', [bad])),
        bad,
      ).toMatchObject({ code: '23514' });
    }
  });

  it('refuse an origin no browser sends, naming the form to store: an xn-- host, no default port', async () => {
    const refused = async (origin: string) =>
      refusal(db.owner.query('insert into private.allowed_origins values ($1)', [origin]));
    // What a browser sends for the owner's own site, as the message's node command prints it.
    expect(new URL('https://bücher.example').origin).toBe('https://xn--bcher-kva.example');
    expect(await refused('https://bücher.example')).toMatchObject({
      code: '23514',
      constraint: 'allowed_origins_as_browsers_send',
      message: expect.stringContaining(`node -p "new URL('https://bücher.example').origin"`),
    });
    for (const [origin, stored] of [
      ['https://example.com:443', 'https://example.com'],
      ['http://localhost:80', 'http://localhost'],
      ['https://[2001:db8::1]:443', 'https://[2001:db8::1]'],
    ]) {
      expect(await refused(origin), origin).toMatchObject({
        code: '23514',
        message: `'${origin}' names the default port, which browsers leave out: store '${stored}'.`,
      });
    }
    for (const origin of ['https://xn--bcher-kva.example', 'https://example.com:8443', 'http://example.com:443']) {
      await db.owner.query('insert into private.allowed_origins values ($1)', [origin]);
    }
    await from('https://xn--bcher-kva.example');
  });
});

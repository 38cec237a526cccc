/**
 * End to end on loopback: notify signs with DKIM and sends to a real SMTP server; the captured
 * message verifies (mailauth, against a loopback DNS server) and its signature covers both
 * unsubscribe headers; both parts end with the link to the site's /unsubscribe page, whose token,
 * POSTed as that page does to the unsubscribe function running under Deno, unsubscribes the
 * recipient, and the resumed run skips them. A test message's links unsubscribe nobody.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../../contracts/unsubscribe-token';
import { publicKeyOf } from '../mail/dkim';
import { startDns, type Dns } from './dns';
import { dkimKeyFile, letterArgs, newDkimKey, SITE_URL } from './notify-letter';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { seed } from './seed';
import { startInbox, type Accepted, type Inbox } from './smtp';
import { postOneClick, startFunction, type RunningFunction } from './unsubscribe-function';

const DOMAIN = 'product.example';
const SELECTOR = 'launch2026';
const READERS = ['ada@example.com', 'grace@example.com', 'alan@example.com'];
const privateKey = newDkimKey();
const keyFile = dkimKeyFile(privateKey);
const HTML = '<p>We launched.</p>';
const htmlFile = join(mkdtempSync(join(tmpdir(), 'html-')), 'launch.html');
writeFileSync(htmlFile, HTML);

const db = useOwnDatabase('cli_one_click');
let dns: Dns;
let inbox: Inbox;
let fn: RunningFunction;
beforeAll(async () => {
  await db.owner.query('delete from public.waiting_list');
  await seed(db.owner, READERS);
  dns = await startDns(
    new Map([
      [DOMAIN, { txt: ['v=spf1 ip4:127.0.0.1 -all'], mx: ['mx.product.example'] }],
      [`_dmarc.${DOMAIN}`, { txt: ['v=DMARC1; p=none'] }],
      [`${SELECTOR}._domainkey.${DOMAIN}`, { txt: [`v=DKIM1; k=rsa; p=${publicKeyOf(privateKey)}`] }],
    ]),
  );
  inbox = await startInbox();
  fn = await startFunction(db.info, process.env.UNSUBSCRIBE_SECRET);
}, 60_000);
afterAll(async () => {
  await fn?.stop();
  await inbox?.close();
  await dns?.close();
});

const notify = (campaign: string, ...more: string[]) =>
  waitlist(
    [
      ...letterArgs(campaign, { dns: dns.server, unsubscribeUrl: fn.url }),
      '--dkim-key',
      keyFile,
      '--dkim-selector',
      SELECTOR,
      '--html',
      htmlFile,
      '--json',
      ...more,
    ],
    { SMTP_URL: inbox.url },
  );

const verify = (raw: Buffer | string) => dkimVerify(raw, { resolver: dns.resolve as never });
const oneClickUrl = ({ mail }: Accepted) =>
  (mail.headers.get('list') as { unsubscribe: { url: string } }).unsubscribe.url;
const headerLines = (raw: Buffer) => raw.toString().split(/\r?\n\r?\n/)[0];
/** The body's link: the site's /unsubscribe page, the token in the fragment (both parts carry it). */
const pageLink = ({ mail }: Accepted) =>
  new RegExp(`^Unsubscribe: (${SITE_URL}/unsubscribe#.+)$`, 'm').exec(mail.text!)?.[1];
/** What the /unsubscribe page does with its token. */
const postFromThePage = (link: string) =>
  postOneClick(`${fn.url}?token=${new URL(link).hash.slice(1)}`, { origin: SITE_URL });

describe('notify, signed, with one-click unsubscribe', () => {
  let preview: Accepted[];

  it('sends messages whose DKIM signature verifies and covers both unsubscribe headers', async () => {
    const run = await notify('preview');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('PRIVATE KEY');
    preview = [...inbox.accepted];
    expect(preview).toHaveLength(READERS.length);
    for (const message of preview) {
      const { results } = await verify(message.raw);
      expect(results).toHaveLength(1);
      expect(results[0].status).toMatchObject({ result: 'pass', aligned: DOMAIN });
      const signed = String(results[0].signingHeaders?.keys).toLowerCase().split(/:\s*/);
      expect(signed).toEqual(
        expect.arrayContaining(['from', 'subject', 'date', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']),
      );
    }
  });

  it('has one of each header, a Message-ID on the From domain, a Date, a text part and the HTML part', () => {
    const lines = headerLines(preview[0].raw);
    for (const name of [
      'From',
      'To',
      'Reply-To',
      'Subject',
      'Date',
      'Message-ID',
      'List-Unsubscribe',
      'List-Unsubscribe-Post',
      'DKIM-Signature',
      'MIME-Version',
      'Content-Type',
    ]) {
      expect(lines.match(new RegExp(`^${name}:`, 'gim')), name).toHaveLength(1);
    }
    expect(preview[0].mail.messageId).toMatch(/^<[\w-]+@product\.example>$/);
    expect(preview[0].mail.date).toBeInstanceOf(Date);
    expect(preview[0].mail.text).toContain('We launched.');
    expect(preview[0].mail.html).toBe(`${HTML}<p><a href="${pageLink(preview[0])}">Unsubscribe</a></p>\n`);
    expect(lines).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(preview[0].mail.headers.get('list')).toMatchObject({
      unsubscribe: { url: expect.stringContaining(`${fn.url}?token=`) },
    });
  });

  it('fails DKIM once a covered header is altered', async () => {
    const raw = preview[0].raw.toString();
    const token = new URL(oneClickUrl(preview[0])).searchParams.get('token')!;
    const altered = [
      raw.replace(
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'List-Unsubscribe-Post: List-Unsubscribe=Two-Clicks',
      ),
      raw.replace(token, new URL(oneClickUrl(preview[1])).searchParams.get('token')!),
      raw.replace('Subject: We launched', 'Subject: We launched!'),
    ];
    for (const message of altered) {
      expect(message).not.toBe(raw);
      const { results } = await verify(message);
      expect(results[0].status.result).toBe('fail');
    }
  });

  it('unsubscribes the recipient whose body link the /unsubscribe page POSTs; the resumed run skips them', async () => {
    inbox.accepted.length = 0;
    const first = await notify('launch', '--limit', '1');
    expect(first.code, first.stderr).toBe(3); // two left to send
    expect(inbox.accepted).toHaveLength(1); // --limit 1, with two connections
    const sentFirst = inbox.accepted.map((a) => a.envelopeTo[0]);
    const leaving = preview.find((a) => !sentFirst.includes(a.envelopeTo[0]))!;
    const response = await postFromThePage(pageLink(leaving)!);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const resumed = await notify('launch');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sentNow: 1, sent: 2, skipped: 1, leftToSend: 0 });
    const reached = inbox.accepted.map((a) => a.envelopeTo[0]);
    expect(reached).toHaveLength(2);
    expect(reached).not.toContain(leaving.envelopeTo[0]);
    const { rows } = await db.owner.query(
      `select reason from private.do_not_email where address_hash = private.address_hash($1)`,
      [leaving.envelopeTo[0]],
    );
    expect(rows).toEqual([{ reason: 'unsubscribed' }]);
  });

  it('erasure keeps what the unsubscribe stored: the address signed up again is not emailed', async () => {
    const [{ hash }] = (
      await db.owner.query(`select address_hash as hash from private.do_not_email where reason = 'unsubscribed'`)
    ).rows;
    const { rows } = await db.owner.query('select email from private.mailable_signups');
    const leaving = READERS.find((email) => !rows.some((row) => row.email === email));
    const erased = await waitlist(['erase', '--yes', leaving!]);
    expect(erased.code, erased.stderr).toBe(0);
    await db.owner.query('insert into public.waiting_list (email) values ($1)', [leaving]); // by anyone
    const after = await db.owner.query('select reason from private.do_not_email where address_hash = $1', [hash]);
    expect(after.rows).toEqual([{ reason: 'unsubscribed' }]);
    expect((await db.owner.query('select from private.mailable_signups where email = $1', [leaving])).rowCount).toBe(0);
  });

  it('gives the --to message and the preview test links: the function refuses them (403), stores nothing', async () => {
    const before = (await db.owner.query('select * from private.do_not_email')).rows;
    inbox.accepted.length = 0;
    const test = await notify('test', '--to', 'me@product.example');
    expect(test.code, test.stderr).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'preview-')), 'preview.html');
    const preview = await notify('test', '--preview', file);
    expect(preview.code, preview.stderr).toBe(0);
    const shown = /List-Unsubscribe:\n &#60;(.+?)&#62;/.exec(readFileSync(file, 'utf8'))?.[1];
    expect(inbox.accepted).toHaveLength(1);
    const links = [oneClickUrl(inbox.accepted[0]), shown!];
    expect(links).toEqual([`${fn.url}?token=${TEST_TOKEN}`, `${fn.url}?token=${TEST_TOKEN}`]);
    expect(pageLink(inbox.accepted[0])).toBe(`${SITE_URL}/unsubscribe#${TEST_TOKEN}`);
    const answers = [
      await postFromThePage(pageLink(inbox.accepted[0])!),
      ...(await Promise.all(links.map((link) => postOneClick(link)))),
    ];
    for (const response of answers) {
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(
        /^This unsubscribe link is not valid \(altered, cut short, or a test message's\): nothing changed\./,
      );
    }
    expect((await db.owner.query('select * from private.do_not_email')).rows).toEqual(before);
  });
});

/**
 * Launch day loses no one, against the SMTP sink, a DNS stand-in and the throwaway PostgreSQL: a
 * provider refusing the sender costs no subscriber and the rerun reaches everyone once; a bad
 * mailbox still bounces; old-rule bounces are taken back after asking; a campaign sends its
 * recorded letter and refuses another; junk domains are counted before the send and left out on
 * request.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDns, type Dns } from './dns';
import { letterArgs, recipients, UNSUBSCRIBE_URL } from './notify-letter';
import { countRows, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { numbered, seed } from './seed';
import { startInbox, type Inbox } from './smtp';

const db = useOwnDatabase('cli_launch_day');
const folder = mkdtempSync(join(tmpdir(), 'launch-day-'));
const READERS = numbered('reader', 12);
let inbox: Inbox;
let dns: Dns;
beforeAll(async () => {
  await seed(db.owner, READERS);
  inbox = await startInbox();
  // The readers' domain has a mail server: every run below resolves it.
  dns = await startDns(new Map([['example.com', { mx: ['mx.example.com'] }]]));
});
afterAll(async () => {
  await inbox.close();
  await dns.close();
});

const notify = (campaign: string, ...more: string[]) =>
  waitlist([...letterArgs(campaign, { dns: dns.server }), ...more], { SMTP_URL: inbox.url });
/** How many of `addresses` are on the do-not-email list. */
const listed = (addresses: string[]) =>
  countRows(
    db.owner,
    `private.do_not_email
     where address_hash in (select private.address_hash(a) from unnest($1::text[]) a)`,
    [addresses],
  );
const delivered = (from: number) =>
  inbox.accepted
    .slice(from)
    .map((a) => a.envelopeTo[0])
    .sort();

describe('a refusal is the recipient’s only when the server says so', () => {
  it('the sender refused (550 5.7.26): the run stops, names why, lists nobody; a rerun reaches all once', async () => {
    inbox.answerRcpt = () => ({ code: 550, message: '5.7.26 Unauthenticated email is not accepted due to DMARC' });
    const refused = await notify('sender', '--connections', '1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'The SMTP server refused 10 addresses in a row; stopped: the provider refuses the sender: 550 5.7.26 ' +
        'Unauthenticated email is not accepted due to DMARC; fix SPF/DKIM/DMARC with `waitlist domain`',
    );
    expect(await listed(READERS)).toBe(0);
    inbox.answerRcpt = () => undefined;
    const start = inbox.accepted.length;
    const fixed = await notify('sender');
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(delivered(start)).toEqual(await recipients(db.owner)); // everyone, once
  });

  it('550 5.1.1 still puts that address on the do-not-email list', async () => {
    await seed(db.owner, ['gone@example.com']);
    inbox.answerRcpt = (to) => (to === 'gone@example.com' ? { code: 550, message: '5.1.1 No such user' } : undefined);
    const run = await notify('bounce');
    inbox.answerRcpt = () => undefined;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('    1 × 550 5.1.1\n');
    expect(await listed(['gone@example.com'])).toBe(1);
  });

  it('suppress --repair-bounces, asked first, takes back bounces an old run wrote from other refusals', async () => {
    const old = [
      'old-1@example.com',
      'old-2@example.com',
      'old-3@example.com',
      'old-later@example.com',
      'old-out@example.com',
    ];
    await seed(db.owner, old);
    // As the earlier rule recorded every 5xx: the journal row and the entry in one statement.
    for (const [address, detail] of [...old.map((a) => [a, '550 5.7.26']), ['old-3@example.com', '554']]) {
      await db.owner.query(
        `with h as (select private.address_hash($1) as hash),
           j as (insert into private.notify_journal (campaign, address_hash, state, detail)
                 select 'old', hash, 'failed', $2 from h
                 on conflict (campaign, address_hash) do update set detail = excluded.detail, changed_at = now())
         insert into private.do_not_email (address_hash, reason) select hash, 'bounced' from h
         on conflict (address_hash) do update set added_at = now()`,
        [address, detail],
      );
    }
    expect((await waitlist(['suppress', 'old-later@example.com', '--reason', 'bounced'])).code).toBe(0);
    // Bounced under the old rule, then unsubscribed: the repair must not take the opt-out back.
    await db.owner.query('select private.unsubscribe(private.address_hash($1))', ['old-out@example.com']);
    const unasked = await waitlist(['suppress', '--repair-bounces']);
    expect(unasked.code).toBe(2);
    expect(await listed(old)).toBe(5);
    const repaired = await waitlist(['suppress', '--repair-bounces', '--yes']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain('3 addresses are on the do-not-email list as bounced from replies');
    expect(repaired.stderr).toContain('  2 × 550 5.7.26\n  1 × 554\n');
    for (const address of old) expect(repaired.stderr).not.toContain(address);
    expect(await listed(old)).toBe(2); // the one a later suppress listed, and the one unsubscribed, stay
  });
});

describe('a campaign remembers its letter', () => {
  it('a rerun naming only --campaign sends its letter; a changed subject is refused; a preview rewritten', async () => {
    expect((await notify('remembered', '--limit', '2')).code).toBe(3);
    const start = inbox.accepted.length;
    const bare = [
      'notify',
      '--campaign',
      'remembered',
      '--unsubscribe-url',
      UNSUBSCRIBE_URL,
      '--dns-server',
      dns.server,
    ];
    const rest = await waitlist([...bare, '--yes'], { SMTP_URL: inbox.url });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain('Sender domain product.example');
    expect(inbox.accepted.length).toBeGreaterThan(start);
    for (const { mail } of inbox.accepted.slice(start)) expect(mail.subject).toBe('We launched');
    const changed = await notify('remembered', '--subject', 'We launched today');
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('changed since: the subject (--subject)');
    expect(changed.stderr).toContain('--campaign <new name>');

    const page = join(folder, 'preview.html');
    for (const subject of ['First', 'Second']) {
      const run = await waitlist([...bare, '--subject', subject, '--preview', page]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('differs from campaign "remembered"\'s: the subject (--subject)');
    }
    expect(readFileSync(page, 'utf8')).toContain('<h1 id="subject">Second</h1>');
  });
});

describe('junk named before the send', () => {
  it('counts by reason; --skip-undeliverable leaves out undeliverable and throwaway; sends the unknown', async () => {
    const junk = {
      'ada@mx.example': { mx: ['mail.mx.example'] },
      'bob@a-only.example': { a: ['192.0.2.1'] },
      'cy@null-mx.example': { mx: ['.'] },
      'dee@nx.example': undefined,
      'eve@slow.example': { silent: true },
      'fay@mailinator.com': undefined,
    };
    for (const [address, entry] of Object.entries(junk)) if (entry) dns.zone.set(address.split('@')[1], entry);
    await seed(db.owner, Object.keys(junk));
    const start = inbox.accepted.length;
    const run = await notify('junk', '--skip-undeliverable', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      '  no mail server: 1 addresses: nx.example 1\n' +
        '  null MX: 1 addresses: null-mx.example 1\n' +
        '  throwaway: 1 addresses: mailinator.com 1\n' +
        '  unknown: 1 addresses: slow.example 1 (no answer now: sent)\n',
    );
    for (const address of Object.keys(junk)) expect(run.stderr).not.toContain(address);
    const sent = delivered(start);
    expect(sent).toEqual(expect.arrayContaining(['ada@mx.example', 'bob@a-only.example', 'eve@slow.example']));
    for (const left of ['cy@null-mx.example', 'dee@nx.example', 'fay@mailinator.com']) expect(sent).not.toContain(left);
    const { rows } = await db.owner.query(
      `select detail, count(*)::int as n from private.notify_journal where campaign = 'junk' and state = 'skipped'
       and detail <> 'do-not-email' group by 1 order by 1`,
    );
    expect(rows).toEqual([
      { detail: 'no mail server', n: 1 },
      { detail: 'null MX', n: 1 },
      { detail: 'throwaway domain', n: 1 },
    ]);
    expect(await listed(['cy@null-mx.example', 'dee@nx.example', 'fay@mailinator.com'])).toBe(0);
  });
});

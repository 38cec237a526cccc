/**
 * Nothing goes out wrong: a bad sender or subject is refused before anything connects; a send
 * asks first (or needs --yes); --limit stages it; an address suppressed mid-run is not mailed;
 * signups added with the triggers off are keyed and sent, and every summary adds up.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letter } from '../commands/notify/letter';
import { letterArgs, unconfirmedArgs } from './notify-letter';
import { asSuperuser, countRows, useOwnDatabase } from './own-database';
import { startCli, waitFor, waitlist } from './run-cli';
import { numbered, seed } from './seed';
import { startInbox, type Inbox } from './smtp';
import { onTerminal } from './terminal';

const db = useOwnDatabase('cli_notify_asks');
let inbox: Inbox;
beforeAll(async () => {
  await seed(db.owner, numbered('asks', 12));
  inbox = await startInbox();
});
afterAll(() => inbox.close());

const journal = async (campaign: string) =>
  (
    await db.owner.query(
      `select w.email, j.state from private.notify_journal j join public.waiting_list w on w.id = j.signup_id
       where j.campaign = $1 order by 1`,
      [campaign],
    )
  ).rows as { email: string; state: string }[];
const previewFolder = mkdtempSync(join(tmpdir(), 'preview-'));
const previewFile = () => join(previewFolder, 'preview.html');
const letterFile = join(previewFolder, 'launch.txt');
writeFileSync(letterFile, 'We launched.\n');
const notify = (campaign: string, ...more: string[]) =>
  waitlist([...letterArgs(campaign), ...more], { SMTP_URL: inbox.url });
const adds = (s: Record<string, number>) => s.sent + s.skipped + s.failed + s.uncertain + s.leftToSend;

describe('before anything connects', () => {
  it.each([
    [{ from: 'not an address' }, 'is not one address with a domain'],
    [{ from: 'a@b.example, c@d.example' }, 'is not one address with a domain'],
    [{ replyTo: 'nobody' }, 'is not one address with a domain'],
    [{ subject: 'x'.repeat(999) }, 'at most 998'],
    [{ text: '/nonexistent/launch.txt' }, 'Cannot read the --text file'],
  ])('the letter %.40j is refused: "%s"', (change, words) => {
    const sent = { from: 'Launch <launch@product.example>', subject: 'We launched', text: letterFile };
    expect(() => letter({ ...sent, ...change })).toThrow(words);
  });

  it('a refused letter stops a send, a test message and a preview alike (exit 2)', async () => {
    for (const more of [['--to', 'me@product.example'], ['--preview', previewFile()], []]) {
      const { code, stdout, stderr } = await notify('refused', '--from', 'not an address', ...more);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toContain('is not one address with a domain');
    }
    expect(inbox.connections).toBe(0);
    expect(await journal('refused')).toEqual([]);
    expect(existsSync(previewFile())).toBe(false);
  });
});

describe('asking first', () => {
  it('off a terminal, refuses without --yes before connecting (exit 2)', async () => {
    const { code, stderr } = await waitlist(unconfirmedArgs('unasked'), { SMTP_URL: inbox.url });
    expect(code).toBe(2);
    expect(stderr).toContain('add --yes');
    expect(await journal('unasked')).toEqual([]);
    expect(inbox.accepted).toEqual([]);
  });

  it('on a terminal, says how many, which campaign and from whom, and sends only on "y"', async () => {
    const waiting = await countRows(db.owner, 'private.mailable_signups');
    const question =
      `About to email ${waiting} addresses in campaign "asked" from Launch <launch@product.example>. ` + 'Send? [y/N]';
    const declined = await onTerminal(unconfirmedArgs('asked'), { SMTP_URL: inbox.url }, question, 'n');
    expect(declined.code).toBe(1);
    expect(declined.output).toContain('Nothing sent.');
    expect(inbox.accepted).toEqual([]);
    const accepted = await onTerminal(unconfirmedArgs('asked'), { SMTP_URL: inbox.url }, question, 'y');
    expect(accepted.code, accepted.output).toBe(0);
    expect(inbox.accepted).toHaveLength(waiting);
  });
});

describe('while sending', () => {
  it('--limit sends at most N in this run and says how many are left (exit 3)', async () => {
    inbox.accepted.length = 0;
    const first = await notify('staged', '--limit', '5', '--json');
    expect(first.code).toBe(3);
    expect(inbox.accepted).toHaveLength(5);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ sentNow: 5, sent: 5, leftToSend: summary.onTheList - 5 - summary.skipped });
    expect(first.stderr).toContain(`${summary.leftToSend} left to send: run the same command again`);
  });

  it('checks the do-not-email list when it takes each address: one suppressed mid-run is not mailed', async () => {
    inbox.accepted.length = 0;
    inbox.holdAfter = 1;
    const run = startCli([...letterArgs('suppressed-mid-run'), '--connections', '1', '--json'], {
      SMTP_URL: inbox.url,
    });
    await waitFor(() => expect(inbox.held).toBe(1));
    const later = (await journal('suppressed-mid-run'))
      .filter((row) => row.state === 'pending')
      .map((row) => row.email);
    expect((await waitlist(['suppress', ...later])).code).toBe(0);
    inbox.release();
    const { code, stdout } = await run.done;
    expect(code).toBe(0);
    expect(inbox.accepted).toHaveLength(1);
    for (const email of later) expect(inbox.deliveredTo(email)).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ sentNow: 1, leftToSend: 0 });
    await db.owner.query(`delete from private.do_not_email where reason = 'suppressed'`);
  });
});

describe('signups added with the triggers off', () => {
  it('are keyed and sent like the others, and the summary adds up to the list', async () => {
    await asSuperuser(
      db,
      `set session_replication_role = replica;
       insert into public.waiting_list (email) select 'restored-' || i || '@example.com' from generate_series(1, 30) i`,
    );
    inbox.accepted.length = 0;
    const { code, stdout } = await notify('restored', '--json');
    expect(code).toBe(0);
    for (let i = 1; i <= 30; i += 1) expect(inbox.deliveredTo(`restored-${i}@example.com`)).toBe(1);
    const summary = JSON.parse(stdout);
    expect(adds(summary)).toBe(summary.onTheList);
    expect(summary.onTheList).toBe(await countRows(db.owner, 'public.waiting_list'));
  });

  it('that repeat a listed address are named, and nothing is sent until they are removed', async () => {
    await asSuperuser(
      db,
      `set session_replication_role = replica; insert into public.waiting_list (email) values ('ASKS-1@example.com')`,
    );
    inbox.accepted.length = 0;
    const { code, stderr } = await notify('repeated');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /1 signups repeat an address already on the list \(added with the triggers off\), ids \d+\./,
    );
    expect(stderr).not.toMatch(/asks-1@example\.com/i);
    expect(inbox.accepted).toEqual([]);
    await db.owner.query(`delete from public.waiting_list where email = 'ASKS-1@example.com'`);
  });
});

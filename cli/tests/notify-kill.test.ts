/**
 * Exactly once across a crash: a notify run is killed with SIGKILL while the SMTP server holds
 * two messages unanswered; the next run names those two and sends everyone else; a run with
 * --resend-uncertain sends those two; a last run sends nothing. Every address gets one message.
 * And across a connection cut just after the database wrote "sent": nobody gets a second copy.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cuttingProxy } from './cutting-proxy';
import { letterArgs, recipients, unsendable } from './notify-letter';
import { useOwnDatabase } from './own-database';
import { startCli, waitFor, waitlist } from './run-cli';
import { numbered, onTheWire, seed } from './seed';
import { startInbox, type Inbox } from './smtp';

const db = useOwnDatabase('cli_notify_kill');
const CAMPAIGN = 'killed';
const DELIVERED_BEFORE_KILL = 5;
let inbox: Inbox;

beforeAll(async () => {
  await seed(db.owner, numbered('kill', 40));
  inbox = await startInbox();
});
afterAll(() => inbox.close());

const args = [...letterArgs(CAMPAIGN), '--connections', '2'];
const journal = async (state: string, campaign = CAMPAIGN) =>
  (
    await db.owner.query(
      `select w.email from private.notify_journal j join public.waiting_list w on w.id = j.signup_id
       where j.campaign = $1 and j.state = $2 order by 1`,
      [campaign, state],
    )
  ).rows.map((row) => row.email as string);

it('a run killed mid-way and run again delivers to every address exactly once, naming the uncertain ones', async () => {
  const everyone = await recipients(db.owner);
  inbox.holdAfter = DELIVERED_BEFORE_KILL;
  const killed = startCli(args, { SMTP_URL: inbox.url });
  // Both senders are waiting for the server's answer, and what it accepted is recorded.
  await waitFor(async () => {
    expect(inbox.held).toBe(2);
    expect(await journal('sent')).toHaveLength(inbox.accepted.length);
    expect(inbox.accepted.length).toBe(DELIVERED_BEFORE_KILL);
  });
  killed.child.kill('SIGKILL');
  expect((await killed.done).signal).toBe('SIGKILL');

  const uncertain = await journal('sending');
  expect(uncertain).toHaveLength(2);
  inbox.holdAfter = Infinity;

  const resumed = await waitlist(args, { SMTP_URL: inbox.url });
  expect(resumed.code).toBe(4); // only the uncertain two are left to decide
  for (const email of uncertain) expect(resumed.stderr).toContain(`\n  ${email}\n`);
  for (const email of uncertain) expect(inbox.deliveredTo(onTheWire(email))).toBe(0);

  const resent = await waitlist([...args, '--resend-uncertain'], { SMTP_URL: inbox.url });
  expect(resent.code, resent.stderr).toBe(0);
  const last = await waitlist(args, { SMTP_URL: inbox.url });
  expect(last.code).toBe(0);
  expect(last.stderr).toContain('sent: 0 in this run');

  const failed = await journal('failed');
  for (const email of failed) expect(unsendable(email), email).toBe(true);
  for (const email of everyone) expect(inbox.deliveredTo(onTheWire(email)), email).toBe(failed.includes(email) ? 0 : 1);
  expect(inbox.accepted.length).toBe(everyone.length - failed.length);
});

it('a connection cut once the journal wrote "sent" leaves that address sent: no run emails it again', async () => {
  const everyone = await recipients(db.owner);
  const cutAfterSent = await startInbox();
  // The first "sent" write reaches the server and commits; its reply never reaches notify.
  const proxy = await cuttingProxy(db.info, {
    cutAt: (query) => query.includes('update private.notify_journal set state = $3'),
    forward: true,
  });
  try {
    const cutArgs = [...letterArgs('cut'), '--connections', '2'];
    const first = await waitlist(cutArgs, { SMTP_URL: cutAfterSent.url, DATABASE_URL: proxy.url });
    expect(proxy.cut()).toBe(true);
    expect(first.code, first.stderr).toBe(0);
    const again = await waitlist(cutArgs, { SMTP_URL: cutAfterSent.url });
    expect(again.stderr).toContain('sent: 0 in this run');
    const failed = await journal('failed', 'cut');
    for (const email of everyone) {
      expect(cutAfterSent.deliveredTo(onTheWire(email)), email).toBe(failed.includes(email) ? 0 : 1);
    }
  } finally {
    await proxy.close();
    await cutAfterSent.close();
  }
});

/** One notify run: checks both servers, queues the list, asks, sends, and says what is left. */
import { newPool } from '../../connect/database.ts';
import { keySignups } from '../../list/signups.ts';
import { type Opener, openerFor } from '../../seal/open.ts';
import { progress } from '../../terminal/progress.ts';
import { confirm, EXIT, json, say, UsageError } from '../../terminal/terminal.ts';
import { enqueue, lockCampaign, resendUncertain, toSend, uncertain } from './journal.ts';
import { nameJunk } from './junk.ts';
import type { Sending } from './one-message.ts';
import { remember, sameLetter, storedLetter, type Recorded } from './campaign.ts';
import { domainOf, shown } from './letter.ts';
import { preflight, type PreflightOptions } from './preflight.ts';
import { sendAll, type SendOptions } from './send.ts';
import { outcome, printSummary, summarize } from './summary.ts';
import { checkSmtp, smtpTransport } from './smtp.ts';

type Flags = { resendUncertain?: boolean; skipUndeliverable?: boolean; yes?: boolean; json?: boolean };
export type RunOptions = PreflightOptions & SendOptions & Flags & { limit?: number };

async function queue(db: ReturnType<typeof newPool>, options: RunOptions, opener: Opener | null) {
  const { campaign } = options;
  await keySignups(db);
  await enqueue(db, campaign);
  const unsure = await uncertain(db, campaign, opener);
  if (unsure.length && options.resendUncertain) {
    say(`Sending again to ${await resendUncertain(db, campaign)} uncertain addresses (--resend-uncertain).`);
  } else if (unsure.length) {
    say(`Uncertain, left alone: ${unsure.length} addresses were with the SMTP server when an earlier run stopped.`);
    say('They may or may not have received the message; --resend-uncertain sends them again:');
    for (const email of unsure) say(`  ${email ?? '(erased since)'}`);
  }
  return toSend(db, campaign);
}

/**
 * Under `npm run waitlist`, one press of Ctrl-C can reach this process twice (the terminal signals npm and this
 * process, and npm passes its SIGINT on), within milliseconds: a SIGINT this soon after the first is the same press.
 */
export const SAME_PRESS_MS = 200;

/** Until `release()`, Ctrl-C aborts the returned signal once (a clean stop); a second press exits at once. */
function ctrlC() {
  const controller = new AbortController();
  let first = 0;
  const onSigint = () => {
    const now = Date.now();
    if (!first) {
      first = now;
      say('\nStopping: no new address is taken; the messages with the SMTP server finish and are recorded.');
      say('(Ctrl-C again stops at once: those messages are then left uncertain.)');
      controller.abort();
    } else if (now - first > SAME_PRESS_MS) {
      say('Stopped at once: the messages with the SMTP server are left uncertain; the next run names them.');
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSigint);
  const release = () => {
    process.off('SIGINT', onSigint);
  };
  return { stopping: controller.signal, release };
}

export async function run(options: RunOptions, sending: Sending, record: Recorded) {
  const { letter, oneClick } = sending;
  const { campaign } = options;
  const transport = smtpTransport(options.connections, sending.dkim);
  const db = newPool(options.connections + 1);
  const lock = await db.connect().catch(async (error) => {
    await db.end();
    throw error;
  });
  try {
    if (!(await lockCampaign(lock, campaign))) {
      throw new UsageError(`Another notify run of campaign "${campaign}" is running.`);
    }
    const changed = sameLetter(campaign, record, await storedLetter(lock, campaign));
    if (changed.length) {
      say(`The letter changed (${changed.join(', ')}); nobody has the old one: this one is recorded.`);
    }
    // Before anything is sent or shown: without the key, no address at all.
    const opener = await openerFor(lock, 'notify');
    await checkSmtp(transport);
    const queued = await queue(db, options, opener);
    if (queued) await nameJunk(db, options, opener);
    const recipients = Math.min(await toSend(db, campaign), options.limit ?? Infinity);
    await preflight(domainOf(letter.from.address), sending.signing, options, recipients);
    if (recipients) {
      await confirm(
        `About to email ${recipients} addresses in campaign "${campaign}" from ${shown(letter.from)}. Send?`,
        options.yes,
        'Nothing sent.',
      );
    }
    await remember(lock, campaign, record);
    const bar = progress('notify', recipients, Math.max(100, Math.ceil(recipients / 20)));
    const interrupt = ctrlC();
    const plan = { ...options, letter, oneClick, opener, transport, db, limit: recipients };
    const done = await sendAll({ ...plan, progress: bar, stopping: interrupt.stopping }).finally(() => bar.stop());
    const summary = await summarize(db, campaign, done.sent);
    interrupt.release();
    printSummary(summary);
    if (options.json) json(summary);
    if (done.stopped) {
      say(`Stopped early: ${done.stopped.message}`);
      return EXIT.failed;
    }
    if (interrupt.stopping.aborted) {
      say('Stopped by Ctrl-C. Run the same command again to continue: nobody is sent the message twice.');
      return EXIT.interrupted;
    }
    const { code, words } = outcome(summary);
    if (words) say(words);
    return code;
  } finally {
    lock.release();
    transport.close();
    await db.end();
  }
}

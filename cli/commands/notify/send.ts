/** The send loop: N senders, each taking one address at a time from the journal. */
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Transporter } from 'nodemailer';
import type { Progress } from '../../terminal/progress.ts';
import { claimAgain, claimNext, record, type Claimed } from './journal.ts';
import type { Opener } from '../../seal/open.ts';
import type { Letter } from './letter.ts';
import { cause, detail, refusal, reply } from '../../mail/refusal.ts';
import { deliverableAsStored, message } from './smtp.ts';
import { unsubscribeLinks, type OneClick } from './unsubscribe.ts';

/**
 * As notify's options say: rate, messages per second at most (the provider's limit; none: as fast as the server
 * answers); retries after a temporary refusal, waiting backoff ms, then twice as long each time.
 */
export type SendOptions = { campaign: string; connections: number; rate?: number; retries: number; backoff: number };
type SendPlan = SendOptions & {
  letter: Letter;
  oneClick: OneClick;
  opener: Opener | null; // null before `keys init`
  transport: Transporter;
  db: pg.Pool;
  limit: number; // addresses this run takes at most
  progress: Progress;
  /** Aborted by the first Ctrl-C: no new address is taken, waits end, messages in flight finish. */
  stopping: AbortSignal;
};

/**
 * Permanent refusals in a row that mean the server refuses everything (the sender's DNS, a quota, a blocked account).
 */
const REFUSED_IN_A_ROW = 10;

/** Spaces hand-overs at least 1/rate seconds apart, across all senders. */
function pacer(rate: number | undefined, signal: AbortSignal) {
  let next = 0;
  return async () => {
    if (!rate) return;
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + 1000 / rate;
    if (at > now) await delay(at - now, undefined, { signal }).catch(() => undefined);
  };
}

/**
 * Records as sent a message the SMTP server accepted. A failed write is tried again on another connection (the one
 * that failed may have done it, or not: the write is the same either way), three times in all.
 */
async function recordAccepted(db: pg.Pool, campaign: string, hash: Buffer) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await record(db, campaign, hash, 'sent');
      return;
    } catch (error) {
      if (attempt === 3) {
        throw error;
      }
      await delay(500 * attempt);
    }
  }
}

/** Sends to every pending address once; returns what this run did, and why it stopped early if it did. */
export async function sendAll(plan: SendPlan) {
  const { db, campaign, opener } = plan;
  const done = { sent: 0, failed: 0, skipped: 0, deferred: 0, uncertain: 0 };
  const resting: Buffer[] = []; // refused for now: pending, not taken again by this run but by the sender waiting on it
  const pace = pacer(plan.rate, plan.stopping);
  let budget = plan.limit;
  let refusedInARow = 0;
  let stop: Error | undefined;

  /** One address, until the server answered for good or it is left to a later run. */
  async function deliver(first: Claimed) {
    let claimed: Claimed | null = first;
    let attempt = 0;
    while (claimed?.mayEmail) {
      const { hash, email } = claimed;
      let accepted = false;
      try {
        await plan.transport.sendMail(message(plan.letter, email, await unsubscribeLinks(plan.oneClick, hash)));
        accepted = true;
        await recordAccepted(db, campaign, hash);
        done.sent += 1;
        refusedInARow = 0;
        return;
      } catch (error) {
        if (accepted) {
          // The server has the message: the row stays 'sending', which the next run names as uncertain (sent
          // again only with --resend-uncertain), never 'pending'.
          done.uncertain += 1;
          stop = new Error(
            `The journal did not record a message the SMTP server accepted: ${(error as Error).message}.`,
          );
          return;
        }
        const kind = refusal(error);
        if (kind === 'uncertain') {
          done.uncertain += 1; // stays 'sending', named by the next run
          return;
        }
        if (kind === 'bounced' || kind === 'refused') {
          const why = kind === 'bounced' ? reply(error) : `${cause(error)}. Those it refused are left to send`;
          refusedInARow += 1;
          if (refusedInARow >= REFUSED_IN_A_ROW) {
            stop = new Error(`The SMTP server refused ${REFUSED_IN_A_ROW} addresses in a row; stopped: ${why}.`);
          }
          if (kind === 'bounced') {
            await record(db, campaign, hash, 'failed', detail(error));
            done.failed += 1;
            return;
          }
          // Not the recipient's: left to send, and not taken again by this run.
          resting.push(hash);
          await record(db, campaign, hash, 'pending', detail(error));
          done.deferred += 1;
          return;
        }
        // Temporary or fatal: back to 'pending' before any wait, so a stop now leaves it to send;
        // resting first, so that no other sender takes it meanwhile.
        resting.push(hash);
        await record(db, campaign, hash, 'pending', detail(error));
        if (kind === 'fatal') stop = new Error(`SMTP: ${reply(error)}`);
        if (kind === 'fatal' || attempt >= plan.retries) {
          done.deferred += 1;
          return;
        }
        const waited = await delay(plan.backoff * 2 ** attempt, true, { signal: plan.stopping }).catch(() => false);
        if (!waited || stop) {
          done.deferred += 1;
          return;
        }
      }
      // A temporary refusal, waited out: taken again before it leaves `resting`. A claim that finds it gone
      // (another sender's claim read `resting` before it rested, or it was erased) gives its share of --limit
      // back, as a skipped address does: it was counted once already, and the journal keeps it to one message.
      claimed = await claimAgain(db, campaign, hash, opener);
      resting.splice(resting.indexOf(hash), 1);
      if (!claimed?.mayEmail) budget += 1;
      if (claimed && !claimed.mayEmail) done.skipped += 1;
      attempt += 1;
    }
  }

  async function sender() {
    while (!stop && !plan.stopping.aborted && budget > 0) {
      budget -= 1; // before any wait: another sender checks the budget meanwhile
      await pace();
      if (plan.stopping.aborted) return;
      const next = await claimNext(db, campaign, resting, opener);
      if (!next) return;
      if (!next.mayEmail) {
        budget += 1;
        done.skipped += 1;
      } else if (!deliverableAsStored(next.email)) {
        const why = 'not sent: the mailer would deliver it to another address than the one stored';
        await record(db, campaign, next.hash, 'failed', why);
        done.failed += 1;
      } else {
        await deliver(next);
      }
      plan.progress.advance();
    }
  }

  await Promise.all(Array.from({ length: plan.connections }, sender));
  return { ...done, stopped: stop };
}

/** The send loop: N senders, each taking one address at a time from the journal. */
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Transporter } from 'nodemailer';
import type { Progress } from '../progress.ts';
import { claim, record } from './journal.ts';
import { deliverableAsStored, message, refusal, reply, type Letter, type Refusal } from './mail.ts';

export type SendPlan = {
  campaign: string;
  letter: Letter;
  transport: Transporter;
  db: pg.Pool;
  connections: number;
  /** Messages per second at most (the provider's limit); none: as fast as the server answers. */
  rate?: number;
  /** Attempts after a temporary refusal, waiting backoffMs, then twice as long each time. */
  retries: number;
  backoffMs: number;
  progress: Progress;
};

/** Permanent refusals in a row that mean the server refuses everything (a quota, a blocked account). */
const REFUSED_IN_A_ROW = 10;

/** Spaces hand-overs at least 1/rate seconds apart, across all senders. */
function pacer(rate: number | undefined): () => Promise<void> {
  let next = 0;
  return async () => {
    if (!rate) return;
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + 1000 / rate;
    if (at > now) await delay(at - now);
  };
}

async function deliver(plan: SendPlan, to: string): Promise<{ kind: 'sent' } | { kind: Refusal; error: unknown }> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await plan.transport.sendMail(message(plan.letter, to));
      return { kind: 'sent' };
    } catch (error) {
      const kind = refusal(error);
      if (kind !== 'temporary' || attempt >= plan.retries) return { kind, error };
      await delay(plan.backoffMs * 2 ** attempt);
    }
  }
}

/** Sends to every pending address once; returns what this run did, and why it stopped early if it did. */
export async function sendAll(plan: SendPlan) {
  const done = { sent: 0, failed: 0, deferred: 0, uncertain: 0 };
  const deferred: Buffer[] = []; // temporarily refused in this run: left pending for the next one
  const pace = pacer(plan.rate);
  let refusedInARow = 0;
  let stop: Error | undefined;

  async function sender() {
    while (!stop) {
      await pace();
      const next = await claim(plan.db, plan.campaign, deferred);
      if (!next) return;
      if (!deliverableAsStored(next.email)) {
        const detail = 'not sent: the mailer would deliver it to another address than the one stored';
        await record(plan.db, plan.campaign, next.hash, 'failed', detail);
        done.failed += 1;
        plan.progress.advance();
        continue;
      }
      const result = await deliver(plan, next.email);
      if (result.kind === 'sent') {
        await record(plan.db, plan.campaign, next.hash, 'sent');
        done.sent += 1;
        refusedInARow = 0;
      } else if (result.kind === 'permanent') {
        await record(plan.db, plan.campaign, next.hash, 'failed', reply(result.error, next.email));
        done.failed += 1;
        if (++refusedInARow >= REFUSED_IN_A_ROW) {
          stop = new Error(
            `The SMTP server refused ${REFUSED_IN_A_ROW} addresses in a row; stopped. Last reply: ${reply(result.error, next.email)}`,
          );
        }
      } else if (result.kind === 'uncertain') {
        // The server may hold the message: the row stays 'sending', named by the next run.
        done.uncertain += 1;
      } else {
        await record(plan.db, plan.campaign, next.hash, 'pending', reply(result.error, next.email));
        deferred.push(next.hash);
        done.deferred += 1;
        if (result.kind === 'fatal') stop = new Error(`SMTP: ${reply(result.error, next.email)}`);
      }
      plan.progress.advance();
    }
  }

  await Promise.all(Array.from({ length: plan.connections }, sender));
  return { ...done, stopped: stop };
}

import type pg from 'pg';
import { say } from '../terminal.ts';
import { failures, tally, type Tally } from './journal.ts';

export type Summary = Tally & {
  campaign: string;
  sentNow: number;
  doNotEmail: number;
  failures: { detail: string; n: number }[];
};

export async function summarize(db: pg.Pool, campaign: string, sentNow: number): Promise<Summary> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from public.waiting_list w join private.waiting_list_keys h on h.id = w.id
     where not exists (select from private.mailable_signups m where m.id = w.id)
       and not exists (select from private.notify_journal j where j.campaign = $1 and j.address_hash = h.address_hash)`,
    [campaign],
  );
  return {
    campaign,
    sentNow,
    ...(await tally(db, campaign)),
    doNotEmail: rows[0].n,
    failures: await failures(db, campaign),
  };
}

export function printSummary(s: Summary): void {
  say(`Campaign "${s.campaign}":`);
  say(`  sent: ${s.sentNow} in this run, ${s.sent} in all`);
  say(`  skipped: ${s.doNotEmail} on the do-not-email list, ${s.skipped} erased or suppressed after being queued`);
  say(`  failed: ${s.failed} refused for good (5xx, or not deliverable as stored), now on the do-not-email list`);
  for (const { detail, n } of s.failures) say(`    ${n} × ${detail}`);
  say(
    `  uncertain: ${s.sending} (with the SMTP server when a run stopped or a connection dropped; --resend-uncertain sends them again)`,
  );
  say(`  left to send: ${s.pending}${s.pending ? ' (refused for now: run again later)' : ''}`);
}

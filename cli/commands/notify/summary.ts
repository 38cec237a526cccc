/** Where each signup stands in a campaign: on the list = sent + skipped + failed + uncertain + left to send. */
import { longQuery } from '../../connect/database.ts';
import type { Queryable } from '../../connect/queries.ts';
import { EXIT, say } from '../../terminal/terminal.ts';
import { failures } from './journal.ts';

type Parts = Record<'onTheList' | 'sent' | 'skipped' | 'failed' | 'uncertain' | 'leftToSend', number>;
type Summary = Parts & { campaign: string; sentNow: number; failures: { detail: string; n: number }[] };

/** A signup without a journal row is skipped when it may not be emailed, else left to send (the next run queues it). */
export async function summarize(db: Queryable, campaign: string, sentNow: number): Promise<Summary> {
  const { rows } = await db.query<Parts>(
    longQuery(
      `select count(*)::int as "onTheList",
                  count(*) filter (where j.state = 'sent')::int as sent,
                  count(*) filter (where j.state = 'skipped' or (j.state is null and m.id is null))::int as skipped,
                  count(*) filter (where j.state = 'failed')::int as failed,
                  count(*) filter (where j.state = 'sending')::int as uncertain,
                  count(*) filter (
                    where j.state = 'pending' or (j.state is null and m.id is not null)
                  )::int as "leftToSend"
           from public.waiting_list w
           left join private.signup_addresses a on a.id = w.id
           left join private.notify_journal j on j.campaign = $1 and j.address_hash = a.address_hash
           left join private.mailable_signups m on m.id = w.id`,
      [campaign],
    ),
  );
  return { campaign, sentNow, ...rows[0], failures: await failures(db, campaign) };
}

export function printSummary(summary: Summary) {
  const { campaign, onTheList, sentNow, sent, skipped, failed, failures, uncertain, leftToSend } = summary;
  say(`Campaign "${campaign}", ${onTheList} addresses on the list:`);
  say(`  sent: ${sentNow} in this run, ${sent} in all`);
  say(`  skipped: ${skipped} (on the do-not-email list, or left out: no mail server, throwaway domain)`);
  say(
    `  failed: ${failed} refused for good (no such mailbox or domain, or not deliverable as stored), ` +
      'now on the do-not-email list',
  );
  for (const { detail, n } of failures) say(`    ${n} × ${detail}`);
  say(`  uncertain: ${uncertain} (with the SMTP server when a run stopped; --resend-uncertain sends them again)`);
  say(`  left to send: ${leftToSend}`);
}

/** The exit status that says what is left, and the words for it. */
export function outcome({ leftToSend, uncertain }: Summary) {
  if (leftToSend) {
    return {
      code: EXIT.leftToSend,
      words: `${leftToSend} left to send: run the same command again (later, if the server refused them for now).`,
    };
  }
  if (uncertain) {
    return {
      code: EXIT.onlyUncertain,
      words:
        `Only the ${uncertain} uncertain addresses are left: they may or may not have the message. ` +
        'Send them again with --resend-uncertain, or leave them.',
    };
  }
  return { code: EXIT.ok };
}

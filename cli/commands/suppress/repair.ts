/**
 * A one-time repair: notify once put every address a 5xx refused on the do-not-email list as 'bounced', whatever the
 * reply said. Those entries it wrote itself (added in the same statement that marked the journal row failed, so at the
 * same instant) from a reply that was not about the mailbox are taken back, and their addresses left to send. Never an
 * entry a later command made.
 */
import type pg from 'pg';
import { confirm, say } from '../../terminal/terminal.ts';
import { inTransaction } from '../../connect/queries.ts';
import { aboutTheMailbox } from '../../mail/refusal.ts';

const WRITTEN_BY_NOTIFY = `
  from private.do_not_email d join private.notify_journal j
    on j.address_hash = d.address_hash and j.state = 'failed' and j.changed_at = d.added_at
  where d.reason = 'bounced' and j.detail ~ '^5[0-9][0-9]( |$)'`;

export async function repairBounces(db: pg.Client, yes?: boolean) {
  const { rows } = await db.query<{ detail: string; n: number }>(
    `select j.detail, count(distinct d.address_hash)::int as n ${WRITTEN_BY_NOTIFY} group by 1 order by 2 desc, 1`,
  );
  const wrong = rows.filter((row) => !aboutTheMailbox(row.detail));
  const total = wrong.reduce((sum, row) => sum + row.n, 0);
  if (!total) {
    say('No bounced entry came from a refusal of the sender or the message: nothing to repair.');
    return 0;
  }
  say(`${total} addresses are on the do-not-email list as bounced from replies that were not about their mailbox:`);
  for (const { detail, n } of wrong) say(`  ${n} × ${detail}`);
  await confirm('Take them off the do-not-email list, left to send in their campaigns?', yes);
  const details = wrong.map((row) => row.detail);
  const taken = await inTransaction(db, async () => {
    const { rows: hashes } = await db.query<{ hash: Buffer }>(
      `select distinct d.address_hash as hash ${WRITTEN_BY_NOTIFY} and j.detail = any ($1)`,
      [details],
    );
    const all = hashes.map((row) => row.hash);
    await db.query(
      `update private.notify_journal set state = 'pending', changed_at = now()
       where state = 'failed' and address_hash = any ($1) and detail = any ($2)`,
      [all, details],
    );
    await db.query(`delete from private.do_not_email where reason = 'bounced' and address_hash = any ($1)`, [all]);
    return all.length;
  });
  say(`${taken} taken back: the next notify run of each campaign sends to them.`);
  return taken;
}

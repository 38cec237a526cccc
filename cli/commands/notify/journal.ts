/**
 * The send journal (private.notify_journal): one row per campaign and address hash. A row is 'sending' only while the
 * SMTP server has the message and its answer is not recorded (a run that dies then leaves it uncertain); one waiting to
 * be tried again is 'pending'.
 */
import { longQuery } from '../../connect/database.ts';
import type { Queryable } from '../../connect/queries.ts';
import { addressOf, type Opener, type StoredAddress } from '../../seal/open.ts';

export type Claimed = { hash: Buffer; email: string; mayEmail: boolean };
type ClaimedRow = StoredAddress & { hash: Buffer; mayEmail: boolean };

/**
 * One run per campaign at a time, for as long as `session` stays open: another run's in-flight rows would look
 * uncertain.
 */
export async function lockCampaign(session: Queryable, campaign: string): Promise<boolean> {
  const { rows } = await session.query('select pg_try_advisory_lock(hashtext($1)) as mine', [`notify ${campaign}`]);
  return rows[0].mine;
}

/** Adds every address that may be emailed and has no row yet; drops rows that may no longer be sent. */
export async function enqueue(db: Queryable, campaign: string) {
  const run = (sql: string) => db.query(longQuery(sql, [campaign]));
  await run(
    `insert into private.notify_journal (campaign, address_hash, signup_id)
     select distinct on (h.address_hash) $1, h.address_hash, m.id
     from private.mailable_signups m join private.signup_addresses h on h.id = m.id
     order by h.address_hash, m.id
     on conflict (campaign, address_hash) do update set signup_id = excluded.signup_id
       where notify_journal.state = 'pending'`,
  );
  await run(
    `update private.notify_journal j set state = 'skipped', changed_at = now(),
       detail = case when j.signup_id is null then 'erased' else 'do-not-email' end
     where j.campaign = $1 and j.state = 'pending'
       and (j.signup_id is null or not exists (select from private.mailable_signups m where m.id = j.signup_id))`,
  );
}

/** Addresses in order, the erased ones (null) last. */
function erasedLast(a: string | null, b: string | null) {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** The addresses a stopped run left in 'sending' (null when erased since), opened if sealed. */
export async function uncertain(db: Queryable, campaign: string, opener: Opener | null) {
  const { rows } = await db.query<StoredAddress>(
    `select w.id, w.email, a.hour_key_id::text, a.seal from private.notify_journal j
     left join public.waiting_list w on w.id = j.signup_id left join private.signup_addresses a on a.id = w.id
     where j.campaign = $1 and j.state = 'sending' order by w.id`,
    [campaign],
  );
  const addresses: (string | null)[] = [];
  for (const row of rows) addresses.push(row.id === null ? null : await addressOf(db, row, opener));
  return addresses.sort(erasedLast);
}

export async function resendUncertain(db: Queryable, campaign: string) {
  const { rowCount } = await db.query(
    `update private.notify_journal set state = 'pending', changed_at = now() where campaign = $1 and state = 'sending'`,
    [campaign],
  );
  return rowCount ?? 0;
}

/**
 * Marks the row 'sending', or 'skipped' when the address is on the do-not-email list by now: the
 * rule of private.mailable_signups for one address (the view would rebuild its whole excluded set
 * at each claim, 20 ms with 2,000 entries). An 'erased' entry yields to a later signup.
 */
const CLAIM = `
  checked as (
    select n.address_hash, w.id, w.email, a.hour_key_id::text, a.seal, not exists (
        select from private.do_not_email d
        where d.address_hash = n.address_hash and not (d.reason = 'erased' and w.created_at > d.added_at)
      ) as may_email
    from next n join public.waiting_list w on w.id = n.signup_id
    left join private.signup_addresses a on a.id = w.id)
  update private.notify_journal j
  set state = case when c.may_email then 'sending' else 'skipped' end,
      detail = case when c.may_email then null else 'do-not-email' end,
      attempts = j.attempts + c.may_email::int, changed_at = now()
  from checked c where j.campaign = $1 and j.address_hash = c.address_hash
  returning j.address_hash as hash, c.id, c.email, c.hour_key_id, c.seal, c.may_email as "mayEmail"`;

/** Takes a pending address `which` picks (committed at once), opened; null when there is none. */
async function claim(db: Queryable, opener: Opener | null, which: string, values: unknown[]): Promise<Claimed | null> {
  const { rows } = await db.query<ClaimedRow>(
    `with next as (
       select address_hash, signup_id from private.notify_journal
       where campaign = $1 and state = 'pending' and signup_id is not null and ${which}), ${CLAIM}`,
    values,
  );
  const row = rows[0];
  return row ? { hash: row.hash, email: await addressOf(db, row, opener), mayEmail: row.mayEmail } : null;
}

/** The next pending address, but none of `resting`. */
export const claimNext = (db: Queryable, campaign: string, resting: Buffer[], opener: Opener | null) =>
  claim(db, opener, 'address_hash <> all ($2::bytea[]) order by signup_id limit 1 for update skip locked', [
    campaign,
    resting,
  ]);

/** This address again after its wait; null when it is no longer pending (erased meanwhile). */
export const claimAgain = (db: Queryable, campaign: string, hash: Buffer, opener: Opener | null) =>
  claim(db, opener, 'address_hash = $2 for update', [campaign, hash]);

type Outcome = 'sent' | 'failed' | 'pending';

/** Records the server's answer. 'failed' (a permanent refusal) also puts the address on do-not-email. */
export async function record(db: Queryable, campaign: string, hash: Buffer, outcome: Outcome, detail?: string) {
  await db.query(
    `with recorded as (
       update private.notify_journal set state = $3, detail = $4, changed_at = now()
       where campaign = $1 and address_hash = $2)
     insert into private.do_not_email (address_hash, reason) select $2, 'bounced' where $3 = 'failed'
     on conflict (address_hash) do nothing -- an earlier reason (unsubscribed, erased) stays
     `,
    [campaign, hash, outcome, detail ?? null],
  );
}

/** Why the failed ones failed: the SMTP reply codes, grouped. */
export async function failures(db: Queryable, campaign: string): Promise<{ detail: string; n: number }[]> {
  const { rows } = await db.query(
    `select coalesce(detail, '?') as detail, count(*)::int as n from private.notify_journal
     where campaign = $1 and state = 'failed' group by 1 order by 2 desc, 1`,
    [campaign],
  );
  return rows;
}

/** The addresses this run would send to (all pending ones not erased). */
export async function toSend(db: Queryable, campaign: string) {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from private.notify_journal
     where campaign = $1 and state = 'pending' and signup_id is not null`,
    [campaign],
  );
  return rows[0].n;
}

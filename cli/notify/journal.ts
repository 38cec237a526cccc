/**
 * The send journal in the database (private.notify_journal): one row per campaign and keyed
 * address hash. A row is 'sending' from just before the SMTP server gets the message until the
 * server's answer is recorded; a run that dies in between leaves it 'sending': uncertain.
 */
import type pg from 'pg';

export type Claimed = { hash: Buffer; email: string };
export type Queryable = pg.Pool | pg.Client | pg.PoolClient;

/** Adds every address that may be emailed and has no row yet; drops rows that may no longer be sent. */
export async function enqueue(db: Queryable, campaign: string): Promise<void> {
  await db.query(
    `insert into private.notify_journal (campaign, address_hash, signup_id)
     select distinct on (h.address_hash) $1, h.address_hash, m.id
     from private.mailable_signups m join private.waiting_list_keys h on h.id = m.id
     order by h.address_hash, m.id
     on conflict (campaign, address_hash) do update set signup_id = excluded.signup_id
       where notify_journal.state = 'pending'`,
    [campaign],
  );
  await db.query(
    `update private.notify_journal j set state = 'skipped', changed_at = now(),
       detail = case when j.signup_id is null then 'erased' else 'do-not-email' end
     where j.campaign = $1 and j.state = 'pending'
       and (j.signup_id is null or not exists (select from private.mailable_signups m where m.id = j.signup_id))`,
    [campaign],
  );
}

/** The addresses a stopped run left in 'sending' (null when erased since). */
export async function uncertain(db: Queryable, campaign: string): Promise<(string | null)[]> {
  const { rows } = await db.query<{ email: string | null }>(
    `select w.email from private.notify_journal j left join public.waiting_list w on w.id = j.signup_id
     where j.campaign = $1 and j.state = 'sending' order by w.email`,
    [campaign],
  );
  return rows.map((row) => row.email);
}

export async function resendUncertain(db: Queryable, campaign: string): Promise<number> {
  const { rowCount } = await db.query(
    `update private.notify_journal set state = 'pending', changed_at = now() where campaign = $1 and state = 'sending'`,
    [campaign],
  );
  return rowCount ?? 0;
}

/** Takes the next pending address and marks it 'sending' (committed at once), or null when none is left. */
export async function claim(db: Queryable, campaign: string, deferred: Buffer[]): Promise<Claimed | null> {
  const { rows } = await db.query<Claimed>(
    `with next as (
       select address_hash from private.notify_journal
       where campaign = $1 and state = 'pending' and signup_id is not null and address_hash <> all ($2::bytea[])
       order by signup_id limit 1 for update skip locked)
     update private.notify_journal j set state = 'sending', attempts = j.attempts + 1, changed_at = now()
     from next, public.waiting_list w
     where j.campaign = $1 and j.address_hash = next.address_hash and w.id = j.signup_id
     returning j.address_hash as hash, w.email`,
    [campaign, deferred],
  );
  return rows[0] ?? null;
}

export type Outcome = 'sent' | 'failed' | 'pending';

/** Records the server's answer. 'failed' (a permanent refusal) also puts the address on do-not-email. */
export async function record(db: Queryable, campaign: string, hash: Buffer, outcome: Outcome, detail?: string) {
  await db.query(
    `with recorded as (
       update private.notify_journal set state = $3, detail = $4, changed_at = now()
       where campaign = $1 and address_hash = $2)
     insert into private.do_not_email (address_hash, reason) select $2, 'bounced' where $3 = 'failed'
     on conflict (address_hash) do update set reason = 'bounced', added_at = now()`,
    [campaign, hash, outcome, detail ?? null],
  );
}

export type Tally = Record<'pending' | 'sending' | 'sent' | 'failed' | 'skipped', number>;

export async function tally(db: Queryable, campaign: string): Promise<Tally> {
  const { rows } = await db.query<{ state: keyof Tally; n: number }>(
    'select state, count(*)::int as n from private.notify_journal where campaign = $1 group by state',
    [campaign],
  );
  const counts: Tally = { pending: 0, sending: 0, sent: 0, failed: 0, skipped: 0 };
  for (const { state, n } of rows) counts[state] = n;
  return counts;
}

/** Why the failed ones failed: the SMTP replies, grouped. */
export async function failures(db: Queryable, campaign: string): Promise<{ detail: string; n: number }[]> {
  const { rows } = await db.query(
    `select coalesce(detail, '?') as detail, count(*)::int as n from private.notify_journal
     where campaign = $1 and state = 'failed' group by 1 order by 2 desc`,
    [campaign],
  );
  return rows;
}

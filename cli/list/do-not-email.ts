/** The do-not-email list (private.do_not_email) and erasure: keyed hashes only, never addresses. */
import type pg from 'pg';
import { inTransaction, type Queryable } from '../connect/queries.ts';
import { utcTimestamp } from './utc.ts';

/** A signup of the address: `email` as stored, null once sealed. */
export type Found = { email: string | null; signed_up_at: string };

/** The signups of $1 in any letter case and Unicode form (private.canonical_address), by their indexed keyed hash. */
const SAME_ADDRESS = 'select id from private.signup_addresses where address_hash = private.address_hash($1)';

export async function signupsOf(db: Queryable, address: string): Promise<Found[]> {
  const { rows } = await db.query<Found>(
    `select email, ${utcTimestamp('created_at')} as signed_up_at
     from public.waiting_list where id in (${SAME_ADDRESS}) order by created_at`,
    [address],
  );
  return rows;
}

/** Deletes the address's signups (the journal keeps its hash, no detail), listed as erased; an unsubscribe stays. */
export function erase(db: pg.Client, address: string) {
  return inTransaction(db, async () => {
    const removed = await db.query(`delete from public.waiting_list where id in (${SAME_ADDRESS})`, [address]);
    await db.query('update private.notify_journal set detail = null where address_hash = private.address_hash($1)', [
      address,
    ]);
    await db.query(
      `insert into private.do_not_email (address_hash, reason) values (private.address_hash($1), 'erased')
       on conflict (address_hash) do update set added_at = now() where do_not_email.reason = 'erased'`,
      [address],
    );
    return removed.rowCount ?? 0;
  });
}

/**
 * Lists the addresses; counts, of the distinct ones, those already listed, and of the others those
 * on the waiting list and those not (all listed now: a later signup is not emailed either).
 */
export async function suppress(db: Queryable, addresses: string[], reason: string) {
  const { rows } = await db.query<{ onTheList: number; alreadySuppressed: number; notOnTheList: number }>(
    `with given as (select distinct private.address_hash(a) as address_hash from unnest($1::text[]) a),
          upserted as (
            insert into private.do_not_email (address_hash, reason)
            select address_hash, $2 from given
            on conflict (address_hash) do update set reason = excluded.reason, added_at = now()
            returning address_hash, (xmax = 0) as added)
     select count(*) filter (where added and s.signed_up)::int as "onTheList",
       count(*) filter (where not added)::int as "alreadySuppressed",
       count(*) filter (where added and not s.signed_up)::int as "notOnTheList"
     from upserted u cross join lateral (select exists (
       select from private.signup_addresses a where a.address_hash = u.address_hash) as signed_up) s`,
    [addresses, reason],
  );
  return rows[0];
}

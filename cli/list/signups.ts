/** The list itself (public.waiting_list) and each signup's address hash and seal (private.signup_addresses). */
import { type Queryable } from '../connect/queries.ts';
import { longQuery } from '../connect/database.ts';
import { UsageError } from '../terminal/terminal.ts';

type Day = { day: string; signups: number };

export async function countSignups(db: Queryable): Promise<{ addresses: number; mayEmail: number }> {
  const { rows } = await db.query(
    `select (select count(*)::int from public.waiting_list) as addresses,
            (select count(*)::int from private.mailable_signups) as "mayEmail"`,
  );
  return rows[0];
}

/** Signups per UTC day from the first signup's day to today, days without signups included. */
export async function signupsPerDay(db: Queryable): Promise<Day[]> {
  const { rows } = await db.query<Day>(
    `with per_day as (
       select (created_at at time zone 'UTC')::date as day, count(*)::int as signups
       from public.waiting_list group by 1)
     select to_char(d, 'YYYY-MM-DD') as day, coalesce(p.signups, 0) as signups
     from generate_series((select min(day) from per_day), (now() at time zone 'UTC')::date, interval '1 day') d
     left join per_day p on p.day = d::date
     order by d`,
  );
  return rows;
}

/**
 * Hashes and seals the signups stored without an address row (added with the triggers off, as by a data-only restore),
 * as the hourly job does; returns how many. Every hash lookup misses them until then.
 */
export async function sealPending(db: Queryable) {
  const { rows } = await db.query<{ changed: number }>(longQuery('select private.seal_pending() as changed'));
  return rows[0].changed;
}

/**
 * sealPending, then a refusal naming (by id, never by address) the signups it could not hash: another holds their
 * address.
 */
export async function keySignups(db: Queryable) {
  const changed = await sealPending(db);
  const { rows: duplicates } = await db.query<{ id: string }>(
    `select w.id from public.waiting_list w
     where not exists (select from private.signup_addresses a where a.id = w.id) order by w.id`,
  );
  if (duplicates.length) {
    const ids = duplicates.map((d) => d.id).join(', ');
    throw new UsageError(
      `${duplicates.length} signups repeat an address already on the list (added with the triggers off), ids ` +
        `${ids}. Nothing else was done. Remove the extra rows, e.g. in the SQL editor: ` +
        `delete from public.waiting_list where id in (${ids});`,
    );
  }
  return changed;
}

/** What export reads: one snapshot for the CSV and its counts, so "left out" is exact. */
import type pg from 'pg';
import { keySignups } from './signups.ts';

export type ExportChoice = { all: boolean; spreadsheet: boolean };

/** COPY of the list as CSV: every signup, or those that may be emailed; oldest first. */
export function exportSql({ all, spreadsheet }: ExportChoice): string {
  const email = spreadsheet ? 'private.csv_cell(email)' : 'email';
  // Quoted cells stay whole where a spreadsheet splits on ';' ("x@b.co;=1+1@b.co" is one address).
  const quoteAll = spreadsheet ? ', force_quote *' : '';
  const from = all ? 'public.waiting_list' : 'private.mailable_signups';
  return `copy (select ${email} as email,
                 to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_at
               from ${from} order by created_at, id) to stdout with (format csv, header${quoteAll})`;
}

/**
 * Opens the snapshot and returns the number of signups in it. Signups without a key (added with
 * the triggers off) escape the do-not-email list, so they are keyed first, in the same transaction.
 */
export async function beginExport(db: pg.Client): Promise<number> {
  await db.query('begin isolation level repeatable read');
  const { rows } = await db.query<{ signups: number; keyed: number }>(
    `select (select count(*)::int from public.waiting_list) as signups,
            (select count(*)::int from private.waiting_list_keys) as keyed`,
  );
  if (rows[0].keyed !== rows[0].signups) await keySignups(db);
  return rows[0].signups;
}

/** What export reads: one snapshot for the CSV and its count, so "left out" is exact. */
import type pg from 'pg';

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

/** Opens the snapshot the export reads, and returns the number of signups in it. */
export async function beginExport(db: pg.Client): Promise<number> {
  await db.query('begin isolation level repeatable read read only');
  const { rows } = await db.query<{ signups: number }>('select count(*)::int as signups from public.waiting_list');
  return rows[0].signups;
}

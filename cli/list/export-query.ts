/** What export reads: one snapshot for the CSV and its count, so "left out" is exact. */
import type pg from 'pg';
import { csvSource } from '../seal/csv.ts';

export type ExportChoice = { all: boolean; spreadsheet: boolean };

/** Every signup with what opens it, the do-not-email list included. */
const EVERY_SIGNUP = `(select w.id, a.hour_key_id, a.seal, w.email, w.created_at
                       from public.waiting_list w left join private.signup_addresses a on a.id = w.id) every`;

/** The binary COPY that cli/seal/csv.ts turns into the CSV: every signup, or those that may be emailed. */
export const exportSource = ({ all }: ExportChoice): string =>
  csvSource(all ? EVERY_SIGNUP : 'private.mailable_signups');

/** Opens the snapshot the export reads, and returns the number of signups in it. */
export async function beginExport(db: pg.Client): Promise<number> {
  await db.query('begin isolation level repeatable read read only');
  const { rows } = await db.query<{ signups: number }>('select count(*)::int as signups from public.waiting_list');
  return rows[0].signups;
}

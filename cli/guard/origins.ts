/** The origins whose pages may sign up (private.allowed_origins; empty: every origin). */
import type { Queryable } from '../list/signups.ts';

export async function allowedOrigins(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ origin: string }>('select origin from private.allowed_origins order by 1');
  return rows.map((row) => row.origin);
}

export async function addOrigin(db: Queryable, origin: string): Promise<boolean> {
  const { rowCount } = await db.query('insert into private.allowed_origins values ($1) on conflict do nothing', [
    origin,
  ]);
  return rowCount === 1;
}

export async function removeOrigin(db: Queryable, origin: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from private.allowed_origins where origin = $1', [origin]);
  return rowCount === 1;
}

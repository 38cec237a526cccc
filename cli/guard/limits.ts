/** The abuse guard's limits (private.signup_limits): one row per scope. */
import type { Queryable } from '../list/signups.ts';

export type Limit = { scope: string; per_10_minutes: number; per_day: number; applies_to: string };

export async function limits(db: Queryable): Promise<Limit[]> {
  return (await db.query<Limit>('select * from private.signup_limits order by scope')).rows;
}

export async function setLimit(db: Queryable, { scope, per_10_minutes, per_day }: Limit): Promise<void> {
  await db.query('update private.signup_limits set per_10_minutes = $2, per_day = $3 where scope = $1', [
    scope,
    per_10_minutes,
    per_day,
  ]);
}

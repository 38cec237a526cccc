/** The abuse guard's settings: its limits (one row per scope) and its allowed origins (none: every origin). */
import type { Queryable } from '../connect/queries.ts';
import { UsageError } from '../terminal/terminal.ts';

export type Limit = { scope: string; per_10_minutes: number; per_day: number; applies_to: string };

export const limits = async (db: Queryable) =>
  (await db.query<Limit>('select * from private.signup_limits order by scope')).rows;

const SET_LIMIT = 'update private.signup_limits set per_10_minutes = $2, per_day = $3 where scope = $1';
export async function setLimit(db: Queryable, { scope, per_10_minutes, per_day }: Limit) {
  await db.query(SET_LIMIT, [scope, per_10_minutes, per_day]);
}

export const allowedOrigins = async (db: Queryable) =>
  (await db.query<{ origin: string }>('select origin from private.allowed_origins order by 1')).rows.map(
    (r) => r.origin,
  );

export const addOrigin = async (db: Queryable, origin: string) =>
  (await db.query('insert into private.allowed_origins values ($1) on conflict do nothing', [origin])).rowCount === 1;

export const removeOrigin = async (db: Queryable, origin: string) =>
  (await db.query('delete from private.allowed_origins where origin = $1', [origin])).rowCount === 1;

export const SHAPE = 'scheme://host[:port], as a browser sends it, e.g. https://your.site or http://localhost:5173';

/** The origin as a browser sends it (lower case, no default port); a page's URL is refused, not cut. */
export function originOf(given: string) {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`Not an origin: ${JSON.stringify(given)}. An origin is ${SHAPE}.`);
  }
  if (url.origin === 'null' || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new UsageError(
      `Not an origin: ${JSON.stringify(given)}. An origin is ${SHAPE} (did you mean ${url.origin}?).`,
    );
  }
  return url.origin;
}

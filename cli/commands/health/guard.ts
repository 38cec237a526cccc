/** The abuse guard's settings and its promise to forget (supabase/security.md), read as the owner. */
import type pg from 'pg';
import { allowOrigin, duration, ok, plural, problem, type Finding } from '../../findings/finding.ts';
import { allowedOrigins, limits } from '../../list/guard.ts';

/** The scopes supabase/migrations/*_signup_guard.sql limits; a scope without a row is not limited. */
const SCOPES = ['ipv4', 'ipv6/64', 'ipv6/48', 'unknown', 'all'];
/** The upkeep job deletes a counter at its first run (every minute) after the slot ends. */
const GRACE = '2 minutes';

/** Whether any are listed; that the site's own origin is among them, the data API's probe proves (PT403). */
export async function checkOrigins(db: pg.Client, site: string | undefined): Promise<Finding> {
  const listed = await allowedOrigins(db);
  if (listed.length) return ok('origins', `private.allowed_origins lists ${listed.join(', ')}.`);
  return problem(
    'origins',
    'private.allowed_origins is empty: any website may make its visitors sign up.',
    allowOrigin(site ?? 'https://your.site'),
  );
}

export async function checkLimits(db: pg.Client): Promise<Finding> {
  const rows = await limits(db);
  const closed = rows.filter((row) => row.per_10_minutes === 0 || row.per_day === 0).map((row) => row.scope);
  const unlimited = SCOPES.filter((scope) => !rows.some((row) => row.scope === scope));
  const faults = [
    closed.length && `${closed.join(', ')} admit 0 signups, so every visitor they cover is refused (429)`,
    unlimited.length && `${unlimited.join(', ')} have no row, so nothing limits them`,
  ].filter(Boolean);
  if (!faults.length) return ok('limits', `Every scope (${SCOPES.join(', ')}) admits signups and is limited.`);
  return problem(
    'limits',
    `In private.signup_limits, ${faults.join('; ')}.`,
    'Set each scope with npm run waitlist -- limits <scope> --per-10-minutes N --per-day N (a missing row: the ' +
      'insert in supabase/migrations/*_signup_guard.sql); supabase/security.md gives the shipped values.',
  );
}

export async function checkGuardData(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ counters: number; secrets: number; oldest: number }>(
    `with stale as (
       select 'counter' as kind, slot_end as ended from private.signup_counts where slot_end < now() - $1::interval
       union all
       select 'secret', day_end from private.signup_secrets where day_end < now() - $1::interval)
     select count(*) filter (where kind = 'counter')::int as counters,
            count(*) filter (where kind = 'secret')::int as secrets,
            extract(epoch from now() - min(ended))::int as oldest
     from stale`,
    [GRACE],
  );
  const [{ counters, secrets, oldest }] = rows;
  if (!counters && !secrets) return ok('guard data', 'No counter or secret of the guard outlived its slot.');
  const kept = [
    counters && `${plural(counters, 'counter')} in private.signup_counts`,
    secrets && `${plural(secrets, 'secret')} in private.signup_secrets`,
  ].filter(Boolean);
  return problem(
    'guard data',
    `${kept.join(' and ')} outlived ${counters + secrets === 1 ? 'its' : 'their'} slot ` +
      `(the oldest ended ${duration(oldest)} ago): the upkeep job is not deleting the guard's personal data, ` +
      'as supabase/security.md promises.',
    'Get waitlist-signup-guard-upkeep running again (its line above), then delete them at once: ' +
      'select private.forget_expired_signups();',
  );
}

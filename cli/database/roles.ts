/**
 * The login roles setup gives a generated password, sent only as a SCRAM verifier: waitlist_unsubscribe
 * (the function's) and waitlist_health (the daily check's: read-only, nothing personal). The password is
 * kept in private.setup_secrets in the same transaction that sets it, so another machine finds it again
 * and the copies elsewhere (the function's secret, the daily check's) stay valid.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../connect/queries.ts';
import { keep, kept } from './kept.ts';
import { scramVerifier } from './scram.ts';

export type Role = 'waitlist_unsubscribe' | 'waitlist_health';

const GRANTS: Record<string, string[]> = {
  waitlist_health: [
    'alter role waitlist_health set default_transaction_read_only = on',
    'grant usage on schema private, supabase_migrations to waitlist_health',
    'grant select on private.allowed_origins, private.signup_limits, supabase_migrations.schema_migrations ' +
      'to waitlist_health',
    'grant select (slot_end) on private.signup_counts to waitlist_health',
    'grant select (day_end) on private.signup_secrets to waitlist_health',
    'grant select (id, added_at, checked_at) on private.key_holders to waitlist_health',
  ],
};

const roleExists = async (db: pg.Client, role: string) =>
  (await db.query('select from pg_roles where rolname = $1', [role])).rowCount === 1;

/**
 * The role's URL: DATABASE_URL's host, port and database, the role as user (`<role>.<ref>` where DATABASE_URL
 * says `postgres.<ref>`).
 */
export function roleUrl(role: string, password: string): string {
  const owner = new URL(process.env.DATABASE_URL!);
  const user = `${role}${/^postgres(\..+)?$/.exec(decodeURIComponent(owner.username))?.[1] ?? ''}`;
  return `postgresql://${user}:${password}@${owner.host}${owner.pathname}`;
}

/** The kept password, if any (`fromFile`: .env.local's, from before passwords were kept, adopted). */
export async function keptPassword(db: pg.Client, role: Role, fromFile?: string): Promise<string | undefined> {
  const password = await kept(db, role);
  if (password || !fromFile || !(await roleExists(db, role))) return password;
  await keep(db, role, fromFile);
  return fromFile;
}

/** Creates the login `role` if missing (in the group `memberOf`), gives it a new password as a verifier; returns it. */
export async function newLoginPassword(db: pg.Client, role: string, memberOf?: string): Promise<string> {
  const password = randomBytes(32).toString('hex'); // nothing to percent-encode
  if (!(await roleExists(db, role))) {
    await db.query(`create role ${role} login ${memberOf ? `in role ${memberOf}` : ''}`);
  }
  // A utility statement takes no parameter; the verifier holds only base64, digits, `$` and `:`.
  await db.query(`alter role ${role} password '${scramVerifier(password)}'`);
  return password;
}

/**
 * Creates `role` if missing, gives it a new password (as a verifier) and its grants, keeps the password; returns
 * it.
 */
export const setRolePassword = (db: pg.Client, role: Role): Promise<string> =>
  inTransaction(db, async () => {
    const password = await newLoginPassword(db, role);
    for (const grant of GRANTS[role] ?? []) await db.query(grant);
    await keep(db, role, password);
    return password;
  });

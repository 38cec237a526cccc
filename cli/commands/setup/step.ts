/** What a setup step is, and what it needs before it can run (in a dry run, a token or password may be missing). */
import { hash } from 'node:crypto';
import { withDatabase } from '../../connect/database.ts';

/**
 * How setup compares what it cannot read back: the site's build stamp, the function's secrets (the API lists digests).
 */
export const digest = (value: string) => hash('sha256', value);

/** Each step checks its state (`done`), else makes it so (`change`). */
export type Step = [name: string, done: () => Promise<boolean>, change: () => Promise<unknown>];

/** Needs a value the run could not get; the message says which. */
export const need = (name: string, value: unknown, why: string) => {
  if (!value) throw new Error(`needs ${name}: ${why}`);
};
export const needsDatabase = () =>
  need('the database password', process.env.DATABASE_URL, 'SUPABASE_DB_PASSWORD, its _COMMAND, or asked on a terminal');
export const needsCloudflare = () =>
  need(
    'a Cloudflare token',
    process.env.CLOUDFLARE_API_TOKEN,
    'CLOUDFLARE_API_TOKEN, its _COMMAND, or asked on a terminal',
  );
/** connect's withDatabase, after needsDatabase: a run without the password says what it needs. */
export const withDatabaseNeeded: typeof withDatabase = (work, options) => {
  needsDatabase();
  return withDatabase(work, options);
};

/** Fixes more than one check names, worded once. */

export { APPLY_MIGRATIONS } from '../connect/database-errors.ts';

export const RESTORE_PROJECT =
  'Open the project in the Supabase dashboard: if it says paused (a Free-plan project is paused after 7 days ' +
  "without activity), restore it there; otherwise see status.supabase.com and the project's logs. " +
  'docs/operations.md, "Is the list taking signups?".';

export const allowOrigin = (site: string) =>
  `psql "$DATABASE_URL" -c "insert into private.allowed_origins values ('${site}')"`;

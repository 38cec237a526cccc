/** Fixes more than one check names, worded once. */

/** How supabase/README.md applies the migrations ("Deploy to Supabase"), from the clone's root. */
export const APPLY_MIGRATIONS = 'npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL"';

export const RESTORE_PROJECT =
  'Open the project in the Supabase dashboard: if it says paused (a Free-plan project is paused after 7 days ' +
  "without activity), restore it there; otherwise see status.supabase.com and the project's logs. " +
  'docs/operations.md, "Is the list taking signups?".';

export const allowOrigin = (site: string) =>
  `psql "$DATABASE_URL" -c "insert into private.allowed_origins values ('${site}')"`;

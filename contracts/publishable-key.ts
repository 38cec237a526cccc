/**
 * The Supabase key the page sends, as the site's variables name it: the publishable key, else its
 * older name, the anon key. The page (src/lib/env.ts), the build's check (vite/env-check.ts) and
 * the health check (cli/commands/health/settings.ts) read it here, so all three agree.
 */
export type KeyVars = { VITE_SUPABASE_PUBLISHABLE_KEY?: string; VITE_SUPABASE_ANON_KEY?: string };

export const publishableKeyOf = (vars: KeyVars): string | undefined =>
  vars.VITE_SUPABASE_PUBLISHABLE_KEY || vars.VITE_SUPABASE_ANON_KEY || undefined;

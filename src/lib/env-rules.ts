/**
 * The rules that read the site's variables, shared by the app (src/lib/env.ts) and the build's
 * check (vite/env-check.ts), so both always agree on which project and key the page uses.
 */
export type SiteVars = {
  VITE_SUPABASE_URL?: string;
  VITE_SUPABASE_PUBLISHABLE_KEY?: string;
  VITE_SUPABASE_ANON_KEY?: string;
  VITE_API_MOCKING?: string;
};

export const supabaseUrlOf = (vars: SiteVars): string | undefined => vars.VITE_SUPABASE_URL || undefined;

/** The public (publishable) key; VITE_SUPABASE_ANON_KEY is its older name. */
export const publicKeyOf = (vars: SiteVars): string | undefined =>
  vars.VITE_SUPABASE_PUBLISHABLE_KEY || vars.VITE_SUPABASE_ANON_KEY || undefined;

/** Development only: mocking is on when no Supabase is configured; VITE_API_MOCKING=on|off forces it. */
export const mockingOf = (vars: SiteVars): boolean =>
  vars.VITE_API_MOCKING === 'on' || (vars.VITE_API_MOCKING !== 'off' && !supabaseUrlOf(vars));

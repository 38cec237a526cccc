/**
 * The rules that read the site's variables, shared by the app (src/lib/env.ts) and the build's
 * check (vite/env-check.ts), so both always agree on which project the page uses; which key it
 * sends is contracts/publishable-key.ts's rule, which the health check shares too.
 */
import type { KeyVars } from '../../contracts/publishable-key.ts';

export type SiteVars = KeyVars & {
  VITE_SUPABASE_URL?: string;
  VITE_API_MOCKING?: string;
};

export const supabaseUrlOf = (vars: SiteVars): string | undefined => vars.VITE_SUPABASE_URL || undefined;

/** Development only: mocking is on when no Supabase is configured; VITE_API_MOCKING=on|off forces it. */
export const mockingOf = (vars: SiteVars): boolean =>
  vars.VITE_API_MOCKING === 'on' || (vars.VITE_API_MOCKING !== 'off' && !supabaseUrlOf(vars));

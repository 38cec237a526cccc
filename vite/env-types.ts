/** The environment as Vite and the host hand it over: a value per name, or none. */
export type Env = Record<string, string | undefined>;

/** Strict-Transport-Security: two years; `includeSubDomains; preload` only when asked for (docs/deploy.md, "HSTS"). */
export type Hsts = 'preload' | 'this-host';

/** The values vite/env-check.ts found usable, for the plugins that need them. */
export type CheckedEnv = { supabaseUrl?: string; siteUrl?: string; hsts: Hsts };

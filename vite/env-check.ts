/**
 * Every environment variable the site reads, checked in one place when `vite` or `vite build`
 * starts: one readable message lists everything missing or malformed, before any work is done.
 * The app reads the values through src/lib/env.ts; `.env.example` documents them.
 */
import type { Plugin } from 'vite';
import type { Hsts } from './security-headers.ts';

export type Env = Record<string, string | undefined>;
export type CheckedEnv = { supabaseUrl?: string; hsts: Hsts };

const PLACEHOLDERS = [
  'https://your-project-ref.supabase.co',
  'sb_publishable_your_key',
  'https://your-domain.example',
  'https://example.com',
];
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** https, or http on this machine only: the CSP upgrades any other http:// request and it fails. */
function urlProblem(name: string, value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${name} is not a URL: "${value}"`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.includes(url.hostname))) {
    return `${name} must be an https:// URL (http:// only for localhost): "${value}"`;
  }
  return undefined;
}

/** The role inside a JWT-shaped value, or undefined when it is not one. */
function jwtRole(value: string): string | undefined {
  const [, payload, signature] = value.split('.');
  if (!payload || !signature || value.split('.').length !== 3) return undefined;
  try {
    const role: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).role;
    return typeof role === 'string' ? role : '(none)';
  } catch {
    return undefined;
  }
}

/** Everything VITE_* ends up in the browser: a secret key there is a leak, whatever its name. */
function secretProblems(env: Env): string[] {
  return Object.entries(env)
    .filter(([name]) => name.startsWith('VITE_'))
    .flatMap(([name, value = '']) => {
      if (value.startsWith('sb_secret_'))
        return [`${name} holds a secret key (sb_secret_…): only the publishable key may reach the browser`];
      const role = jwtRole(value);
      return role && role !== 'anon'
        ? [`${name} holds a JWT with role "${role}": only the anon key may reach the browser`]
        : [];
    });
}

/**
 * The checks. `build`: a production build, which must reach a real project and name the site;
 * otherwise the dev server, which may run on the mock backend.
 */
export function checkEnv(env: Env, { build }: { build: boolean }): { problems: string[]; checked: CheckedEnv } {
  const problems = secretProblems(env);
  const mocking = env.VITE_API_MOCKING;
  if (mocking !== undefined && mocking !== '' && mocking !== 'on' && mocking !== 'off') {
    problems.push(`VITE_API_MOCKING must be "on" or "off" (or unset): "${mocking}"`);
  }
  const supabaseUrl = env.VITE_SUPABASE_URL || undefined;
  const key = env.VITE_SUPABASE_PUBLISHABLE_KEY || env.VITE_SUPABASE_ANON_KEY || undefined;
  const needsSupabase = build || mocking === 'off';
  if (needsSupabase && !supabaseUrl)
    problems.push(
      `VITE_SUPABASE_URL is missing (${build ? 'a production build' : 'VITE_API_MOCKING=off'} needs a Supabase project)`,
    );
  if (needsSupabase && !key) problems.push('VITE_SUPABASE_PUBLISHABLE_KEY (or VITE_SUPABASE_ANON_KEY) is missing');
  if (supabaseUrl)
    problems.push(...[urlProblem('VITE_SUPABASE_URL', supabaseUrl)].filter((problem) => problem !== undefined));

  const siteUrl = env.VITE_SITE_URL || undefined;
  if (build && !siteUrl)
    problems.push("VITE_SITE_URL is missing: the site's public address, for its canonical link and social cards");
  if (siteUrl) {
    const problem = urlProblem('VITE_SITE_URL', siteUrl);
    if (problem) problems.push(problem);
    else if (siteUrl.endsWith('/'))
      problems.push(`VITE_SITE_URL must not end with "/" (links would get "//"): "${siteUrl}"`);
  }

  for (const [name, value] of Object.entries(env)) {
    if (value && PLACEHOLDERS.includes(value) && (build || name !== 'VITE_SITE_URL')) {
      problems.push(`${name} is still the placeholder of .env.example: "${value}"`);
    }
  }

  const hsts = env.HSTS_PRELOAD;
  if (hsts !== undefined && hsts !== '' && hsts !== 'on' && hsts !== 'off')
    problems.push(`HSTS_PRELOAD must be "on" or "off" (or unset): "${hsts}"`);
  return { problems, checked: { supabaseUrl, hsts: hsts === 'on' ? 'preload' : 'this-host' } };
}

/** Stops `vite` and `vite build` at once, with every problem in one message; fills `checked` for other plugins. */
export function envCheck(checked: CheckedEnv): Plugin {
  return {
    name: 'env-check',
    configResolved(config) {
      if (config.mode === 'test') return; // Vitest: no page, no build
      const result = checkEnv(
        { ...config.env, HSTS_PRELOAD: process.env.HSTS_PRELOAD },
        { build: config.command === 'build' },
      );
      const { problems } = result;
      if (problems.length) {
        throw new Error(`The environment is not usable (see .env.example):\n  - ${problems.join('\n  - ')}`);
      }
      Object.assign(checked, result.checked);
    },
  };
}

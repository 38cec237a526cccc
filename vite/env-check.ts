/**
 * Every environment variable the site reads, checked in one place when `vite` or `vite build`
 * starts: one readable message lists everything missing or malformed, before any work is done.
 * The app reads the values through src/lib/env.ts; `.env.example` documents them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { loadEnv, type Plugin, type ResolvedConfig } from 'vite';
import type { CheckedEnv, Env } from './env-types.ts';
import { previewProblems } from './preview-guard.ts';
import { publishableKeyOf } from '../contracts/publishable-key.ts';
import { supabaseUrlOf } from '../src/lib/env-rules.ts';

/** What this plugin holds for the others, read through `api`: the checked values, once Vite has resolved its config. */
export type EnvCheckApi = { checked?: CheckedEnv };

export const envCheckApi = (config: ResolvedConfig) =>
  config.plugins.find((plugin) => plugin.name === 'env-check')?.api as EnvCheckApi | undefined;

/** The values `.env.example` sets: a build still holding one was never configured. */
const PLACEHOLDERS = Object.values(
  parseEnv(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../.env.example'), 'utf8')),
);
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * An origin and nothing else (no path, query, credentials, whitespace or quotes), over https,
 * or http on this machine only: the CSP upgrades any other http:// request and it fails.
 */
function originProblems(name: string, value?: string): string[] {
  if (!value) return [];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [`${name} is not a URL: ${JSON.stringify(value)}`];
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.includes(url.hostname))) {
    return [`${name} must be an https:// URL (http:// only for localhost): ${JSON.stringify(value)}`];
  }
  if (value !== url.origin) {
    return [
      `${name} must be an origin alone, like ${JSON.stringify(url.origin)} ` +
        `(no path, query, trailing "/", credentials or spaces): ${JSON.stringify(value)}`,
    ];
  }
  return [];
}

/** The roles of the JWT-shaped parts of a value (none when it holds no JWT). */
function jwtRoles(value: string): string[] {
  return [...value.matchAll(/eyJ[\w-]*\.([\w-]+)\.[\w-]*/g)].flatMap(([, payload]) => {
    try {
      const role: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).role;
      return [typeof role === 'string' ? role : '(none)'];
    } catch {
      return [];
    }
  });
}

/** Everything VITE_* ends up in the browser: a secret key there is a leak, whatever its name or wrapping. */
function secretProblems(env: Env): string[] {
  return Object.entries(env)
    .filter(([name]) => name.startsWith('VITE_'))
    .flatMap(([name, value = '']) => [
      ...(value.includes('sb_secret_')
        ? [`${name} holds a secret key (sb_secret_…): only the publishable key may reach the browser`]
        : []),
      ...jwtRoles(value)
        .filter((role) => role !== 'anon')
        .map((role) => `${name} holds a JWT with role "${role}": only the anon key may reach the browser`),
      ...(value !== value.trim() ? [`${name} has spaces around its value: ${JSON.stringify(value)}`] : []),
    ]);
}

const isPlaceholder = (value: string) => PLACEHOLDERS.includes(value.trim().replace(/\/+$/, ''));

/** A switch: "on", "off", or unset. */
const switchProblems = (name: string, value?: string) =>
  [undefined, '', 'on', 'off'].includes(value)
    ? []
    : [`${name} must be "on" or "off" (or unset): ${JSON.stringify(value)}`];

/** What a production build, or the dev server on the real backend (VITE_API_MOCKING=off), cannot start without. */
function missingProblems(env: Env, build: boolean): string[] {
  const problems: string[] = [];
  if (build || env.VITE_API_MOCKING === 'off') {
    if (!supabaseUrlOf(env)) {
      const why = build ? 'a production build' : 'VITE_API_MOCKING=off';
      problems.push(`VITE_SUPABASE_URL is missing (${why} needs a Supabase project)`);
    }
    if (!publishableKeyOf(env)) {
      problems.push('VITE_SUPABASE_PUBLISHABLE_KEY (or VITE_SUPABASE_ANON_KEY) is missing');
    }
  }
  if (build && !env.VITE_SITE_URL) {
    problems.push("VITE_SITE_URL is missing: the site's public address, for its canonical link and social cards");
  }
  return problems;
}

/** The dev server may keep the committed site address; a build may not. */
const placeholderProblems = (env: Env, build: boolean) =>
  Object.entries(env)
    .filter(([name, value]) => typeof value === 'string' && isPlaceholder(value) && (build || name !== 'VITE_SITE_URL'))
    .map(([name, value]) => `${name} is still the placeholder of .env.example: ${JSON.stringify(value)}`);

/**
 * The checks, in the order their problems are listed. `build`: a production build, which must
 * reach a real project and name the site; otherwise the dev server, which may run on the mock backend.
 */
export function checkEnv(env: Env, { build }: { build: boolean }): { problems: string[]; checked: CheckedEnv } {
  const supabaseUrl = supabaseUrlOf(env);
  const siteUrl = env.VITE_SITE_URL || undefined;
  const problems = [
    ...secretProblems(env),
    ...switchProblems('VITE_API_MOCKING', env.VITE_API_MOCKING),
    ...missingProblems(env, build),
    ...originProblems('VITE_SUPABASE_URL', supabaseUrl),
    ...originProblems('VITE_SITE_URL', siteUrl),
    ...placeholderProblems(env, build),
    ...(build ? previewProblems(env) : []),
    ...switchProblems('HSTS_PRELOAD', env.HSTS_PRELOAD),
  ];
  return { problems, checked: { supabaseUrl, siteUrl, hsts: env.HSTS_PRELOAD === 'on' ? 'preload' : 'this-host' } };
}

/** Stops `vite` and `vite build` at once, with every problem in one message; holds the checked values in `api`. */
export function envCheck(): Plugin {
  const api: EnvCheckApi = {};
  return {
    name: 'env-check',
    api,
    configResolved(config) {
      if (config.mode === 'test') return; // Vitest: no page, no build
      // Not VITE_* (never in the browser): HSTS_PRELOAD, and the hosts' preview markers with the
      // live project's URL (vite/preview-guard.ts), from the environment and the .env files alike.
      const hostEnv = loadEnv(config.mode, config.envDir || config.root, [
        'HSTS_',
        'PRODUCTION_',
        'CONTEXT',
        'VERCEL_ENV',
        'CF_PAGES',
      ]);
      const result = checkEnv({ ...hostEnv, ...config.env }, { build: config.command === 'build' });
      if (result.problems.length) {
        throw new Error(`The environment is not usable (see .env.example):\n  - ${result.problems.join('\n  - ')}`);
      }
      api.checked = result.checked;
    },
  };
}

/**
 * Preview deployments never write into the live list. A build that its host says is a preview
 * must name the live project (PRODUCTION_SUPABASE_URL, not secret, set for every environment)
 * and be built against another one; docs/deploy.md says how on each host.
 */
import type { Env } from './env-types.ts';

/** The host's own word that this build is a preview, or undefined for production and local builds. */
export function previewHost(env: Env): string | undefined {
  if (env.CONTEXT === 'deploy-preview' || env.CONTEXT === 'branch-deploy') return `Netlify (CONTEXT=${env.CONTEXT})`;
  if (env.VERCEL_ENV === 'preview') return 'Vercel (VERCEL_ENV=preview)';
  const production = env.PRODUCTION_BRANCH || 'main';
  if (env.CF_PAGES === '1' && env.CF_PAGES_BRANCH && env.CF_PAGES_BRANCH !== production) {
    return `Cloudflare Pages (branch ${env.CF_PAGES_BRANCH}, production branch ${production})`;
  }
  return undefined;
}

const origin = (value: string | undefined) => {
  try {
    return value ? new URL(value).origin : undefined;
  } catch {
    return value;
  }
};

/** The problems of a preview build's Supabase setting (none outside a preview). */
export function previewProblems(env: Env): string[] {
  const host = previewHost(env);
  if (!host) return [];
  const live = origin(env.PRODUCTION_SUPABASE_URL);
  if (!live) {
    return [
      `This is a preview build on ${host}: set PRODUCTION_SUPABASE_URL (the live project's URL, for every ` +
        'environment) so the build can refuse to send previews there; see docs/deploy.md',
    ];
  }
  if (origin(env.VITE_SUPABASE_URL) === live) {
    return [
      `This is a preview build on ${host}, and VITE_SUPABASE_URL is the live project (PRODUCTION_SUPABASE_URL): ` +
        'previews must not write into the live list. ' +
        "Give the Preview environment a separate project's VITE_SUPABASE_* variables",
    ];
  }
  return [];
}

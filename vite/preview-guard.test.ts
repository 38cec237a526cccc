// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LIVE, PREVIEW, site } from './preview-sites';
import { checkEnv } from './env-check';
import { previewHost } from './preview-guard';

describe('which builds are previews, by the host', () => {
  it.each([
    [{ CONTEXT: 'deploy-preview' }, 'Netlify (CONTEXT=deploy-preview)'],
    [{ CONTEXT: 'branch-deploy' }, 'Netlify (CONTEXT=branch-deploy)'],
    [{ CONTEXT: 'production' }, undefined],
    [{ VERCEL_ENV: 'preview' }, 'Vercel (VERCEL_ENV=preview)'],
    [{ VERCEL_ENV: 'production' }, undefined],
    [{ CF_PAGES: '1', CF_PAGES_BRANCH: 'feature-x' }, 'Cloudflare Pages (branch feature-x, production branch main)'],
    [{ CF_PAGES: '1', CF_PAGES_BRANCH: 'main' }, undefined],
    [
      { CF_PAGES: '1', CF_PAGES_BRANCH: 'main', PRODUCTION_BRANCH: 'live' },
      'Cloudflare Pages (branch main, production branch live)',
    ],
    [{}, undefined],
  ])('%o → %s', (env, host) => {
    expect(previewHost(env)).toBe(host);
  });
});

describe('checkEnv on a preview build', () => {
  const preview = { ...site, CONTEXT: 'deploy-preview' };

  it('refuses the live project, and a preview that does not say which project is live', () => {
    expect(checkEnv({ ...preview, VITE_SUPABASE_URL: `${LIVE}/` }, { build: true }).problems.join('\n')).toContain(
      'VITE_SUPABASE_URL is the live project',
    );
    expect(
      checkEnv(
        { ...preview, PRODUCTION_SUPABASE_URL: undefined, VITE_SUPABASE_URL: PREVIEW },
        { build: true },
      ).problems.join('\n'),
    ).toContain('set PRODUCTION_SUPABASE_URL');
  });

  it('accepts a separate project, and leaves production builds and the dev server alone', () => {
    expect(checkEnv({ ...preview, VITE_SUPABASE_URL: PREVIEW }, { build: true }).problems).toEqual([]);
    expect(checkEnv({ ...site, CONTEXT: 'production', VITE_SUPABASE_URL: LIVE }, { build: true }).problems).toEqual([]);
    expect(checkEnv({ CONTEXT: 'deploy-preview' }, { build: false }).problems).toEqual([]);
  });
});

// @vitest-environment node
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkEnv } from './env-check';
import { previewHost } from './preview-guard';

const run = promisify(execFile);
const LIVE = 'https://live-project.supabase.co';
const PREVIEW = 'https://preview-project.supabase.co';
const site = {
  VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_abc',
  VITE_SITE_URL: 'https://coming-soon.example.org',
  PRODUCTION_SUPABASE_URL: LIVE,
};

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

describe('a real preview build (vite build as a Netlify deploy preview)', () => {
  const build = (outDir: string, url: string) =>
    run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir], {
      env: { ...process.env, ...site, CONTEXT: 'deploy-preview', VITE_SUPABASE_URL: url },
    });
  const filesOf = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));

  it(
    'stops on the live URL, and built for a preview project never names the live one',
    { timeout: 120_000 },
    async () => {
      const outDir = mkdtempSync(join(tmpdir(), 'preview-build-'));
      try {
        const refused = await build(outDir, LIVE).then(
          () => '',
          (error: { stderr: string }) => error.stderr,
        );
        expect(refused).toContain('VITE_SUPABASE_URL is the live project');

        await build(outDir, PREVIEW);
        const text = filesOf(outDir).map((file) => readFileSync(file, 'latin1'));
        expect(text.some((content) => content.includes(PREVIEW))).toBe(true);
        expect(text.filter((content) => content.includes('live-project'))).toEqual([]);
        expect(readFileSync(join(outDir, '_headers'), 'utf8')).toMatch(
          /connect-src[^;\n]*preview-project\.supabase\.co/,
        );
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    },
  );
});

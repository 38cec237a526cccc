// @vitest-environment node
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LIVE, PREVIEW, site } from './preview-sites';

const run = promisify(execFile);

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

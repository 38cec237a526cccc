import react from '@vitejs/plugin-react';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** MSW's worker lives in public/ for the dev server; a production build must not ship it. */
function dropMockWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'drop-mock-worker',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    closeBundle: () => rmSync(resolve(outDir, 'mockServiceWorker.js'), { force: true }),
  };
}

export default defineConfig({
  plugins: [react(), dropMockWorker()],
  // Every browser the build targets supports modulepreload natively.
  build: { modulePreload: { polyfill: false } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'],
          setupFiles: ['src/test/setup.ts'],
          // CSS module class names as the build writes them, so prerendered HTML hydrates here.
          css: { include: [/\.module\.css$/], modules: { classNameStrategy: 'scoped' } },
        },
      },
      {
        test: {
          name: 'db',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts'],
          globalSetup: ['supabase/tests/global-setup.ts'],
          // One throwaway PostgreSQL server is shared; test files run one after another.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

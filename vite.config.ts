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

const firstScriptModules = [
  'src/first-script.ts',
  'src/features/waitlist/early-submit.ts',
  'src/features/waitlist/email.ts',
  'src/features/waitlist/button-labels.ts',
  'src/features/waitlist/insert-email.ts',
  'src/lib/first-interaction.ts',
  'vite/preload-helper',
];

export default defineConfig({
  plugins: [react(), dropMockWorker()],
  build: {
    // Every browser the build targets supports modulepreload natively.
    modulePreload: { polyfill: false },
    // One stylesheet, inlined into the HTML: the app's modules load after the first paint and
    // must not bring styles of their own.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The first script and everything it imports statically stay one small file: the
          // page's only up-front request after the HTML.
          groups: [{ name: 'first-script', test: (id) => firstScriptModules.some((module) => id.includes(module)) }],
        },
      },
    },
  },
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

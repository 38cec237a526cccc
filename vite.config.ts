import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { dropMockWorker } from './vite/drop-mock-worker.ts';
import { envCheck, type CheckedEnv } from './vite/env-check.ts';
import { inlineFirstLoad } from './vite/inline-first-load.ts';
import { prerender } from './vite/prerender.ts';
import { securityHeadersFiles } from './vite/security-headers.ts';

const firstScriptModules = [
  'src/first-script.ts',
  'src/features/waitlist/early-submit.ts',
  'src/features/waitlist/email.ts',
  'src/features/waitlist/button-labels.ts',
  'src/features/waitlist/dom-ids.ts',
  'src/features/waitlist/insert-email.ts',
  'src/features/waitlist/form-code.ts',
  'src/lib/first-interaction.ts',
  'vite/preload-helper',
];

/** Filled by envCheck when Vite starts, read by the plugins that need the checked values. */
const env: CheckedEnv = { hsts: 'this-host' };

export default defineConfig({
  // `vite build` writes the finished site to dist/: pages prerendered, stylesheet inlined,
  // security headers for the hosts, no mock code (see the README, "The production build").
  plugins: [envCheck(env), react(), prerender(), inlineFirstLoad(), securityHeadersFiles(env), dropMockWorker()],
  environments: {
    client: {
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
              groups: [
                { name: 'first-script', test: (id) => firstScriptModules.some((module) => id.includes(module)) },
              ],
            },
          },
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
          // Room for a busy machine; a passing test ends as soon as it is done.
          testTimeout: 30_000,
          globals: true,
          include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts', 'vite/**/*.test.ts'],
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

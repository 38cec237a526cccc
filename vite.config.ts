import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { dropMockWorker } from './vite/drop-mock-worker.ts';
import { envCheck } from './vite/env-check.ts';
import { inlineFirstLoad } from './vite/inline-first-load.ts';
import { inlinePageScripts } from './vite/inline-page-scripts.ts';
import { prerender } from './vite/prerender.ts';
import { securityHeadersFiles } from './vite/security-headers.ts';

/**
 * Two test files at a time in every project, whatever the machine (Vitest would take one on 2
 * cores): most of a database test's time is spent waiting on a server or a child process. One
 * number for all, so the projects share one pool (Vitest runs projects whose numbers differ one
 * group after another).
 */
const WORKERS = 2;
/** Test files in worker threads, not a process each: less CPU on 2 cores (docs/performance.md, "The test command"). */
const POOL = 'threads';
/** The app's tests (in jsdom), and the tools' (the Vite plugins, scripts, contracts: in Node). */
const APP_TESTS = ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'];
const TOOL_TESTS = ['vite/**/*.test.ts', 'scripts/**/*.test.ts', 'contracts/**/*.test.ts'];
/** Tests that run a Vite build: named *.build.test.*. */
const BUILD_TESTS = '**/*.build.test.{ts,tsx}';
/** The app's tests run in jsdom, with its setup and CSS modules named as the build names them. */
const inThePage = {
  environment: 'jsdom',
  globals: true,
  setupFiles: ['src/test/setup.ts'],
  // CSS module class names as the build writes them, so prerendered HTML hydrates here.
  css: { include: [/\.module\.css$/], modules: { classNameStrategy: 'scoped' as const } },
};

export default defineConfig({
  // `vite build` writes the finished site to dist/: pages prerendered, stylesheet inlined,
  // security headers for the hosts, no mock code (docs/architecture.md).
  plugins: [
    envCheck(),
    react(),
    prerender(),
    inlinePageScripts(),
    inlineFirstLoad(),
    securityHeadersFiles(),
    dropMockWorker(),
  ],
  // On the dev server a page's script is the app, src/main.tsx, which the HTML does not name
  // (vite/inline-page-scripts.ts): scan it for dependencies at start, or the first visit finds
  // them late and reloads.
  optimizeDeps: { entries: ['index.html', 'src/main.tsx'] },
  environments: {
    client: {
      build: {
        // Every browser the build targets supports modulepreload natively.
        modulePreload: { polyfill: false },
        // One stylesheet, inlined into the HTML (vite/inline-first-load.ts): the island loads
        // after the first paint and must not bring styles of its own.
        cssCodeSplit: false,
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...inThePage,
          name: 'unit',
          pool: POOL,
          maxWorkers: WORKERS,
          // A jsdom per file: a toast's timer (sonner's, up to 12 s) must not fire into the next
          // file's torn-down window.
          // Room for a busy machine; a passing test ends as soon as it is done.
          testTimeout: 30_000,
          include: APP_TESTS,
          exclude: [...configDefaults.exclude, BUILD_TESTS],
        },
      },
      {
        // The fast loop's other half (npm run test:unit runs both): no page, no mock.
        test: {
          name: 'unit-tools',
          pool: POOL,
          maxWorkers: WORKERS,
          isolate: false,
          environment: 'node',
          testTimeout: 30_000,
          include: TOOL_TESTS,
          exclude: [...configDefaults.exclude, BUILD_TESTS],
        },
      },
      {
        // What runs a Vite build (the server bundle, a whole preview build): the build's tests,
        // out of the fast loop. Each file in a process of its own.
        extends: true,
        test: {
          ...inThePage,
          name: 'build',
          maxWorkers: WORKERS,
          testTimeout: 60_000,
          include: [BUILD_TESTS],
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'db',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts', 'cli/tests/**/*.test.ts'],
          // The servers, and the check that no unsubscribe function is left running: first here, so
          // it runs last after the run (teardowns run in reverse), once the servers have stopped.
          globalSetup: ['cli/tests/no-function-left.ts', 'supabase/tests/global-setup.ts'],
          // Each worker on a throwaway PostgreSQL server of its own (supabase/tests/shared-server.ts).
          pool: POOL,
          maxWorkers: WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

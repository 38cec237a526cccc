import { defineConfig, devices } from '@playwright/test';
import { testChromiumPath } from './e2e/browser';
import { E2E_SUPABASE_URL } from './e2e/e2e-backend';
import { inExtraEngines } from './e2e/engines';
import type { MockLayer } from './e2e/fixtures';
import { quietWrangler } from './scripts/wrangler-env';
import { PAGES_PORT, DEV_PORT, E2E_SITE_URL, INSPECTOR_PORT, NGINX_PORT } from './e2e/ports';
/** The specs that check what a host serves (headers, status codes), run against every host. */
const HOST_SPECS = /build-only\.(security|host)\.spec\.ts/;
/**
 * The production build served by nginx with deploy/nginx/, the mock handlers routed by
 * @msw/playwright. Not by `wrangler pages dev`: it exits when a browser drops a request it is still
 * answering (its ProxyWorker takes the lost connection for a fatal error), and every later test
 * would fail. Cloudflare Pages' runtime gets the host specs, which read whole answers.
 */
const build = {
  name: 'build',
  testIgnore: [/dev-only|nginx-only|firefox-esr/, HOST_SPECS],
  use: {
    baseURL: `http://127.0.0.1:${NGINX_PORT}`,
    mockLayer: 'playwright' as const,
    serviceWorkers: 'block' as const,
  },
};

export default defineConfig<{ mockLayer: MockLayer }>({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // Waits for what the visitor sees get room for a busy machine; a passing wait ends at once.
  expect: { timeout: 10_000 },
  // A test that passes ends at once; a busy 2-core machine (a dev server compiling, a reload, two
  // submits) can need more than the default 30 s for a whole test.
  timeout: 60_000,
  workers: 2,
  // The HTML report (playwright-report/) and the traces of failed tests (test-results/) are kept
  // on every run, CI's included: that is where a failure is read.
  reporter: [['list'], ['html', { open: 'never' }]],
  // Chromium for every project; E2E_ENGINES adds projects in other engines (e2e/engines.ts).
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: testChromiumPath(), args: ['--disable-gpu', '--disable-quic'] },
    // Actions, DOM snapshots, network and console; no screencast frames, which cost every test CPU.
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
  projects: [
    {
      // Before the dev tests: the dev server compiles the page once, and it is on the mock.
      name: 'dev-server',
      testMatch: /dev-server\.setup\.ts/,
      use: { baseURL: `http://127.0.0.1:${DEV_PORT}`, mockLayer: 'worker' },
    },
    {
      // What only the dev server does: MSW's service worker, the mock's reset link, the page when
      // the worker cannot start. The product's catalogue runs once, on the build.
      name: 'dev',
      dependencies: ['dev-server'],
      testMatch: /dev-only\..*\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${DEV_PORT}`, mockLayer: 'worker' },
    },
    build,
    // build-firefox, build-webkit: opt-in here (E2E_ENGINES=firefox,webkit), always in CI.
    ...inExtraEngines(build),
    {
      // The same build in Debian's Firefox ESR, driven through puppeteer-core (e2e/firefox-esr.ts):
      // a Firefox that keeps a failed module import, which Playwright's own Firefox build may not be.
      name: 'firefox-esr',
      testMatch: /firefox-esr\..*\.spec\.ts/,
      use: { baseURL: build.use.baseURL },
    },
    {
      // The same build on Cloudflare Pages' own runtime (wrangler pages dev): the header and status tests.
      name: 'pages',
      testMatch: HOST_SPECS,
      use: { ...build.use, baseURL: `http://127.0.0.1:${PAGES_PORT}` },
    },
    {
      // The header and status tests on nginx too, and the servers around the site (host names,
      // redirect, TLS).
      name: 'nginx',
      testMatch: [HOST_SPECS, /nginx-only\..*\.spec\.ts/],
      use: build.use,
    },
  ],
  webServer: [
    {
      command: `vite --port ${DEV_PORT} --strictPort --host 127.0.0.1`,
      // Beats any .env.local: the dev server under test is on the mock backend.
      env: { VITE_API_MOCKING: 'on' },
      url: `http://127.0.0.1:${DEV_PORT}`,
      reuseExistingServer: false,
    },
    {
      // Its devtools inspector gets a port of its own too (wrangler's default, 9229, may be taken).
      command:
        `npm run build:e2e && wrangler pages dev build/e2e ` +
        `--ip 127.0.0.1 --port ${PAGES_PORT} --inspector-port ${INSPECTOR_PORT}`,
      env: {
        VITE_SUPABASE_URL: E2E_SUPABASE_URL,
        VITE_SUPABASE_PUBLISHABLE_KEY: 'e2e-publishable-key',
        VITE_SITE_URL: E2E_SITE_URL,
        ...quietWrangler,
      },
      url: `http://127.0.0.1:${PAGES_PORT}`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      command: 'tsx e2e/servers/nginx-server.ts',
      // A signal it can act on (Playwright's default is SIGKILL): it stops nginx and removes its temp folder.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      url: `http://127.0.0.1:${NGINX_PORT}`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});

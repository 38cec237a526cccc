import { defineConfig, devices } from '@playwright/test';
import { chromiumPath } from './e2e/browser';
import { E2E_SUPABASE_URL } from './e2e/e2e-backend';
import type { MockLayer } from './e2e/fixtures';
const DEV_PORT = 5173;
const BUILD_PORT = 4173;

export default defineConfig<{ mockLayer: MockLayer }>({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumPath(), args: ['--disable-gpu', '--disable-quic'] },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      // The dev server with MSW's service worker: what a developer sees.
      name: 'dev',
      testIgnore: /build-only/,
      use: { baseURL: `http://127.0.0.1:${DEV_PORT}`, mockLayer: 'worker' },
    },
    {
      // The production build served statically, the mock handlers routed by @msw/playwright.
      name: 'build',
      use: { baseURL: `http://127.0.0.1:${BUILD_PORT}`, mockLayer: 'playwright', serviceWorkers: 'block' },
    },
  ],
  webServer: [
    {
      command: `vite --port ${DEV_PORT} --strictPort --host 127.0.0.1`,
      env: { VITE_API_MOCKING: 'on' },
      url: `http://127.0.0.1:${DEV_PORT}`,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `npm run build:e2e && tsx scripts/serve.ts build/e2e ${BUILD_PORT}`,
      env: { VITE_SUPABASE_URL: E2E_SUPABASE_URL, VITE_SUPABASE_PUBLISHABLE_KEY: 'e2e-publishable-key' },
      url: `http://127.0.0.1:${BUILD_PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 180_000,
    },
  ],
});

import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (or CHROMIUM_PATH); elsewhere Playwright's own browser if installed.
 * Returns undefined to let Playwright use its own.
 */
export function chromiumPath(): string | undefined {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(wanted)) return wanted;
  if (existsSync(chromium.executablePath())) return undefined;
  throw new Error(
    `No Chromium found at ${wanted}. Install one: 'sudo apt-get install -y chromium' (Debian), ` +
      `or 'npx playwright install chromium', or set CHROMIUM_PATH to a Chromium binary.`,
  );
}

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium the tests drive: CHROMIUM_PATH if set; else Debian's chromium-headless-shell, Chromium's
 * own headless build (what Playwright runs headless by default), which spends far less CPU on a
 * busy 2-core machine than the full browser (README, "Tests"); else chromiumPath(). It cannot show a
 * window: to watch a test (--headed, --debug), set CHROMIUM_PATH=/usr/bin/chromium.
 */
export function testChromiumPath(): string | undefined {
  if (!process.env.CHROMIUM_PATH && existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return chromiumPath();
}

/**
 * Debian's Firefox ESR (or FIREFOX_PATH), which e2e/firefox-esr.*.spec.ts drive through
 * puppeteer-core: a Firefox that keeps a failed module import for the page's life.
 */
export function firefoxPath(): string {
  const wanted = process.env.FIREFOX_PATH ?? '/usr/lib/firefox-esr/firefox-esr';
  if (existsSync(wanted)) return wanted;
  throw new Error(
    `No Firefox found at ${wanted}. Install one: 'sudo apt-get install -y firefox-esr' (Debian), ` +
      `or set FIREFOX_PATH to a Firefox binary.`,
  );
}

/**
 * Debian's Firefox ESR, driven by puppeteer-core over WebDriver BiDi (Playwright drives only its
 * own patched Firefox). Every request of the page is intercepted, as the `build` project's
 * fixtures do for Playwright's pages: the fake Supabase origin is answered by the mock's
 * handlers (mocks/handlers.ts), the site's own requests pass unless the test fails them, and
 * anything else is refused and reported.
 */
import { expect } from '@playwright/test';
import { getResponse } from 'msw';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import { handlers, resetMockBackend } from '../mocks/handlers';
import { firefoxPath } from './browser';
import { E2E_SUPABASE_URL } from './e2e-backend';

export const launchFirefox = (): Promise<Browser> =>
  puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true });

/** What crossed the wire: the waiting list's POST bodies, the page loads, requests refused as foreign. */
export type Wire = { posts: string[]; pageLoads: number; escaped: string[] };

/**
 * A new tab on a fresh mock backend, every request intercepted; while `failing(url)` holds for
 * a request of the site, the request fails as if the connection dropped. `ended()` waits until
 * none of the tab's requests is under way (the form's code fetched, or failed).
 */
export async function openTab(browser: Browser, failing: (url: URL) => boolean, { timeout = 30_000 } = {}) {
  resetMockBackend();
  const page = await browser.newPage();
  const wire: Wire = { posts: [], pageLoads: 0, escaped: [] };
  const inFlight = new Set<HTTPRequest>();
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    inFlight.add(request);
    route(request, wire, failing).catch((error: unknown) => {
      if (!page.isClosed()) throw error; // else the tab closed with the request paused
    });
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const ended = () => expect.poll(() => inFlight.size, { timeout }).toBe(0);
  return { page, wire, ended };
}

async function route(request: HTTPRequest, wire: Wire, failing: (url: URL) => boolean) {
  const url = new URL(request.url());
  if (url.origin === E2E_SUPABASE_URL) return answerFromMock(request, wire);
  if (url.protocol === 'data:') return request.continue(); // the inlined favicon
  if (url.hostname !== '127.0.0.1') {
    wire.escaped.push(`${request.method()} ${request.url()}`);
    return request.abort('blockedbyclient');
  }
  if (request.isNavigationRequest()) wire.pageLoads += 1;
  return failing(url) ? request.abort('connectionreset') : request.continue();
}

async function answerFromMock(request: HTTPRequest, wire: Wire) {
  const body = request.hasPostData() ? await request.fetchPostData() : undefined;
  if (request.method() === 'POST' && new URL(request.url()).pathname === '/rest/v1/waiting_list') {
    wire.posts.push(body ?? '');
  }
  const fetchRequest = new Request(request.url(), { method: request.method(), headers: request.headers(), body });
  const response = await getResponse(handlers, fetchRequest);
  if (!response || response.type === 'error') return request.abort('connectionrefused');
  return request.respond({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  });
}

/** Waits, within `timeout`, until a visible element matching `selector` shows every one of `texts`. */
export async function waitForText(page: Page, selector: string, texts: string[], timeout: number) {
  await page
    .waitForFunction(
      (selector: string, texts: string[]) =>
        [...document.querySelectorAll<HTMLElement>(selector)].some(
          (element) => element.checkVisibility() && texts.every((text) => element.innerText.includes(text)),
        ),
      { timeout, polling: 'mutation' },
      selector,
      texts,
    )
    .catch((error: unknown) => {
      throw new Error(`The page did not show "${texts.join(' / ')}" in ${selector} within ${timeout} ms`, {
        cause: error,
      });
    });
}

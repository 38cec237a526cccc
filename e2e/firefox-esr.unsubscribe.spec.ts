/**
 * The /unsubscribe page in Debian's Firefox ESR too (puppeteer-core, e2e/firefox-esr.ts), against the
 * mock of the unsubscribe function: opening it sends nothing; one click sends RFC 8058's one-click
 * POST with the link's token, and the page says it is done.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Browser, HTTPRequest } from 'puppeteer-core';
import { UNSUBSCRIBE_IDS as ids, unsubscribeTexts as texts } from '../src/pages/unsubscribe';
import { launchFirefox, openTab, waitForText } from './firefox-esr';

test.describe('Firefox ESR: the /unsubscribe page', () => {
  test.describe.configure({ mode: 'default', timeout: 60_000 });
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchFirefox();
  });
  test.afterAll(async () => browser?.close());

  test('sends nothing when opened; one click POSTs the one-click body with the token', async ({ baseURL }) => {
    const token = randomBytes(64).toString('base64url');
    const { page, wire } = await openTab(browser, () => false);
    const sent: HTTPRequest[] = [];
    page.on(
      'request',
      (request) => new URL(request.url()).pathname === '/functions/v1/unsubscribe' && sent.push(request),
    );
    await page.goto(`${baseURL}/unsubscribe#${token}`);
    await page.waitForSelector(`#${ids.button}:enabled`);
    await waitForText(page, `#${ids.status}`, [texts.ask], 10_000);
    expect(sent).toEqual([]);
    await page.click(`#${ids.button}`);
    await waitForText(page, `#${ids.status}`, [texts.done], 10_000);
    const posts = await Promise.all(
      sent.map(async (request) => [
        request.method(),
        await request.fetchPostData(),
        new URL(request.url()).searchParams.get('token'),
      ]),
    );
    expect(posts).toEqual([['POST', 'List-Unsubscribe=One-Click', token]]);
    expect(wire.escaped).toEqual([]);
  });
});

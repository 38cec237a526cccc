/**
 * A fetch of the form's code that fails, in a Firefox that keeps a failed module import for the
 * page's life (docs/architecture.md, "When the form's code fails to load"): Debian's Firefox
 * ESR, through puppeteer-core (e2e/firefox-esr.ts), on the build served as Cloudflare Pages
 * would. Importing a chunk again there fails at once, without a request: the cure must work
 * anyway, whichever chunk failed. The same cases as e2e/build-only.load-failure.spec.ts.
 */
import { expect, test } from '@playwright/test';
import type { Browser, Page } from 'puppeteer-core';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids';
import { messages } from '../src/features/waitlist/texts/messages';
import { launchFirefox, openTab, waitForText } from './firefox-esr';
import { ADDRESS, chunksNeverArrive, failingFetches, type FailingFetch } from './load-failure-cases';

const FIELD = '#waitlist-email';
const TOAST = '[data-sonner-toast]';
// Room for a busy machine; a passing wait ends as soon as the page shows what it waits for.
const ARRIVAL = 30_000;

const expectError = (page: Page, errorIn: FailingFetch['errorIn']) =>
  waitForText(
    page,
    errorIn === 'alert' ? `#${LOAD_FAILURE_ID}` : TOAST,
    [messages.failed.title, messages.failed.description],
    ARRIVAL,
  );
const fieldValue = (page: Page) => page.$eval(FIELD, (field) => (field as HTMLInputElement).value);
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);
const storedItems = (page: Page) => page.evaluate(() => sessionStorage.length);

test.describe("Firefox ESR: the form's code fails to load", () => {
  test.describe.configure({ mode: 'default', timeout: 90_000 });
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchFirefox();
  });
  test.afterAll(async () => browser?.close());

  for (const { what, failing, errorIn } of failingFetches) {
    test(`${what} failing: 'Error' with the address kept; once back, the next submit joins, once`, async ({
      baseURL,
    }) => {
      let down = false;
      const { page, wire, ended } = await openTab(browser, (url) => down && failing(url));
      await page.goto(baseURL!);
      down = true;
      await page.type(FIELD, ADDRESS); // the first interaction: the form's code is fetched, and fails
      await ended();
      await page.keyboard.press('Enter');
      await expectError(page, errorIn);
      expect(await fieldValue(page)).toBe(ADDRESS);
      expect(await focusedId(page)).toBe('waitlist-email');

      down = false;
      await ended();
      await page.keyboard.press('Enter');
      await waitForText(page, TOAST, [messages.added.title, messages.added.description], ARRIVAL);
      expect(await fieldValue(page)).toBe('');
      expect(await focusedId(page)).toBe('waitlist-email');
      expect(wire.posts.map((body) => JSON.parse(body))).toEqual([{ email: ADDRESS }]);
      expect(await storedItems(page), 'addresses left in storage').toBe(0);
      expect(wire.escaped, 'requests that would have left the machine').toEqual([]);
      await page.close();
    });
  }

  test("chunks that never arrive: 'Error' on every submit, the address kept, never a reload loop", async ({
    baseURL,
  }) => {
    const { page, wire, ended } = await openTab(browser, chunksNeverArrive);
    await page.goto(baseURL!);
    await page.type(FIELD, ADDRESS);
    for (const submits of [1, 2, 3]) {
      await ended();
      await page.keyboard.press('Enter');
      await expectError(page, 'alert');
      expect(await fieldValue(page)).toBe(ADDRESS);
      expect(await focusedId(page)).toBe('waitlist-email');
      // At most one reload per submit, and none of its own: the first load, then one per submit.
      expect(wire.pageLoads).toBeLessThanOrEqual(1 + submits);
    }
    expect(wire.posts).toEqual([]);
    expect(await storedItems(page), 'addresses left in storage').toBe(0);
    await page.close();
  });
});

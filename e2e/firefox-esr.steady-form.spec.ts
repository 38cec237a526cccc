/**
 * The form holds still through a submit in Debian's Firefox ESR too, and the page reflows beside
 * its scrollbar (puppeteer-core,
 * e2e/firefox-esr.ts), on the build served as Cloudflare Pages would: the field and the button
 * keep their size and place from idle through sending to answered, at the same widths as
 * e2e/build-only.steady-form.spec.ts. The mock's slow address holds the answer for 3 s.
 */
import { expect, test } from '@playwright/test';
import type { Browser, Page } from 'puppeteer-core';
import { magicAddresses } from '../mocks/handlers';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages } from '../src/features/waitlist/texts/messages';
import { launchFirefox, openTab, waitForText } from './firefox-esr';
import { describeBoxes, formBoxesInPage, STEADY_WIDTHS } from './form-boxes';

const ARRIVAL = 30_000;
const formBoxes = (page: Page) => page.evaluate(formBoxesInPage);

test.describe('Firefox ESR: the form holds still through a submit', () => {
  test.describe.configure({ mode: 'default', timeout: 90_000 });
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchFirefox();
  });
  test.afterAll(async () => browser?.close());

  for (const width of STEADY_WIDTHS) {
    test(`${width} px wide: the field and the button keep their size and place`, async ({ baseURL }) => {
      const { page, wire, ended } = await openTab(browser, () => false);
      await page.setViewport({ width, height: 800 });
      await page.goto(baseURL!);
      await page.type('#waitlist-email', magicAddresses.slow); // the first interaction fetches the form's code
      await ended();
      const idle = await formBoxes(page);
      // Reflow with Firefox's classic scrollbar, which takes room from the viewport: nothing sideways.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `content wider than the ${width} px window`).toBe(0);
      await page.keyboard.press('Enter');
      await waitForText(page, '#waitlist-form button:disabled', [buttonLabels.sending], ARRIVAL);
      const sending = await formBoxes(page);
      await waitForText(page, '[data-sonner-toast]', [messages.added.title, messages.added.description], ARRIVAL);
      await waitForText(page, '#waitlist-form button:enabled', [buttonLabels.idle], ARRIVAL);
      const answered = await formBoxes(page);

      test.info().annotations.push({ type: 'form boxes', description: describeBoxes(idle) });
      expect(sending, 'while sending').toEqual(idle);
      expect(answered, 'once answered').toEqual(idle);
      expect(wire.posts.map((body) => JSON.parse(body))).toEqual([{ email: magicAddresses.slow }]);
      expect(wire.escaped, 'requests that would have left the machine').toEqual([]);
      await page.close();
    });
  }
});

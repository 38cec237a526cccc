/**
 * A fetch of the form's code that fails (docs/architecture.md, "When the form's code fails to
 * load"), in every engine Playwright drives: Chromium here, Firefox and WebKit in CI. Requests
 * fail by route, no DevTools protocol needed. Debian's Firefox ESR gets the same cases in
 * e2e/firefox-esr.load-failure.spec.ts.
 */
import type { Request } from '@playwright/test';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids';
import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, test, toast, type Page } from './fixtures';
import { ADDRESS, chunksNeverArrive, failingFetches, type FailingFetch } from './load-failure-cases';

// Room for a busy machine; a passing wait ends as soon as the page shows what it waits for.
const ARRIVAL = { timeout: 30_000 };

/**
 * Fails the site's requests that `failing` names while `network.down`, and counts page loads.
 * `ended()` waits until none of the page's requests is under way (the form's code fetched, or failed).
 */
async function network(page: Page, failing: FailingFetch['failing']) {
  const state = { down: false, pageLoads: 0 };
  const inFlight = new Set<Request>();
  page.on('request', (request) => {
    inFlight.add(request);
    if (request.isNavigationRequest()) state.pageLoads += 1;
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const site = new URL(test.info().project.use.baseURL!).host;
  await page.route(
    (url) => state.down && url.host === site && failing(url),
    (route) => route.abort('connectionreset'),
  );
  const ended = () => expect.poll(() => inFlight.size, ARRIVAL).toBe(0);
  return Object.assign(state, { ended });
}

async function expectError(page: Page, errorIn: FailingFetch['errorIn']) {
  if (errorIn === 'toast') return expect(toast(page, messages.failed)).toBeVisible(ARRIVAL);
  const alert = page.locator(`#${LOAD_FAILURE_ID}`);
  await expect(alert).toBeVisible(ARRIVAL);
  await expect(alert).toContainText(messages.failed.title);
  await expect(alert).toContainText(messages.failed.description);
}

const storedItems = (page: Page) => page.evaluate(() => sessionStorage.length);

for (const { what, failing, errorIn } of failingFetches) {
  test(`${what} failing: 'Error' with the address kept; once back, the next submit joins, once`, async ({
    page,
    waitlistRequests,
  }) => {
    const wire = await network(page, failing);
    await page.goto('/');
    wire.down = true;
    await emailField(page).fill(ADDRESS); // the first interaction: the form's code is fetched, and fails
    await wire.ended();
    await emailField(page).press('Enter');
    await expectError(page, errorIn);
    await expect(emailField(page)).toHaveValue(ADDRESS);
    await expect(emailField(page)).toBeFocused();

    wire.down = false;
    await wire.ended();
    await emailField(page).press('Enter');
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expect(emailField(page)).toHaveValue('');
    await expect(emailField(page)).toBeFocused();
    expect(waitlistRequests.map((request) => request.postDataJSON())).toEqual([{ email: ADDRESS }]);
    expect(await storedItems(page), 'addresses left in storage').toBe(0);
  });
}

test("chunks that never arrive: 'Error' on every submit, the address kept, never a reload loop", async ({
  page,
  waitlistRequests,
}) => {
  const wire = await network(page, chunksNeverArrive);
  await page.goto('/');
  wire.down = true;
  await emailField(page).fill(ADDRESS);
  for (const submits of [1, 2, 3]) {
    await wire.ended();
    await emailField(page).press('Enter');
    await expectError(page, 'alert');
    await expect(emailField(page)).toHaveValue(ADDRESS);
    await expect(emailField(page)).toBeFocused();
    // At most one reload per submit, and none of its own: the first load, then one per submit.
    expect(wire.pageLoads).toBeLessThanOrEqual(1 + submits);
  }
  expect(waitlistRequests).toEqual([]);
  expect(await storedItems(page), 'addresses left in storage').toBe(0);
});

/**
 * Early submits (docs/architecture.md, "Early submits"), as a visitor on a slow phone meets them:
 * the network throttled through Chromium's DevTools protocol, typing at human speed. The form's
 * code is held back until the visitor has submitted, so every test here exercises the early path
 * for certain; then it is released and the outcome must be the product's (docs/product.md §5, §8).
 * The CPU is slowed 4× for the tap only: throttling spends the test machine's CPU, it does not
 * spare it.
 */
import type { Page, Request, Route } from '@playwright/test';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, submitButton, test, toast } from './fixtures';
import { idle, recordFormStates, sending } from './form-states';
import { CHROMIUM_ONLY } from './engines';

/** 400 ms round trips, 50 KB/s each way, with `cpu` a CPU 4× slower too: Chromium's DevTools protocol only. */
async function slowPhone(page: Page, { cpu = false } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: 50 * 1024,
    uploadThroughput: 50 * 1024,
  });
  if (cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

const FORM_CODE = '**/assets/waitlist-*.js';

/**
 * Opens the page with the form's code (its chunk) held on its way until `release()`, which
 * checks it was asked for.
 */
async function openWithFormCodeHeld(page: Page) {
  let open!: () => void;
  const released = new Promise<void>((resolve) => (open = resolve));
  let requested = false;
  await page.route(FORM_CODE, async (route) => {
    requested = true;
    await released;
    await route.fallback();
  });
  await page.goto('/');
  return () => {
    expect(requested, "the form's code was requested and held").toBe(true);
    open();
  };
}

/**
 * The requests so far must be exactly `added`, in order. A stray request of an early submit
 * would come before a later one, so a last address is added through the form first, and only
 * then are the requests read.
 */
async function expectRequestsFor(page: Page, requests: Request[], added: string[]) {
  await emailField(page).fill('last@example.com');
  await emailField(page).press('Enter');
  // Added: the field is emptied once its answer is in (toasts are not counted: they expire).
  await expect(emailField(page)).toHaveValue('', ARRIVAL);
  expect(requests.map((request) => request.postDataJSON().email)).toEqual([...added, 'last@example.com']);
}

const HUMAN_TYPING = { delay: 90 };

/** Types into the field at human speed, then presses Enter. */
async function typeAndSubmit(page: Page, text: string) {
  await emailField(page).pressSequentially(text, HUMAN_TYPING);
  await emailField(page).press('Enter');
}
// The throttled network needs seconds to bring the form's code once it is released.
const ARRIVAL = { timeout: 30_000 };

test.describe.configure({ timeout: 90_000 });

test.describe("on a slow network, before the form's code has arrived", { tag: CHROMIUM_ONLY }, () => {
  test.beforeEach(async ({ page }) => slowPhone(page));

  test('the button is enabled at rest, and Tab reaches it', async ({ page }) => {
    const release = await openWithFormCodeHeld(page);
    await expect(submitButton(page)).toBeEnabled();
    await expect(submitButton(page)).toHaveText(buttonLabels.idle, { useInnerText: true });
    await page.keyboard.press('Tab');
    await expect(emailField(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(submitButton(page)).toBeFocused();
    // Then the code arrives, as it does for a visitor who waits: the form stays at rest, the focus kept.
    const arrived = page.waitForResponse((response) => /\/assets\/waitlist-[^/]*\.js$/.test(response.url()), ARRIVAL);
    release();
    await (await arrived).finished();
    await expect(submitButton(page)).toBeFocused();
    await expect(submitButton(page)).toHaveText(buttonLabels.idle, { useInnerText: true });
  });

  test('(a) Tab, type, Enter at once: sending shown at once, then added with one request', async ({
    page,
    waitlistRequests,
  }) => {
    const release = await openWithFormCodeHeld(page);
    const states = await recordFormStates(page);
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.com', HUMAN_TYPING);
    await page.keyboard.press('Enter');
    await expect(submitButton(page)).toHaveText(buttonLabels.sending, { useInnerText: true });
    await expect(emailField(page)).toBeDisabled();
    release();
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expect(emailField(page)).toHaveValue('');
    await expect(submitButton(page)).toHaveText(buttonLabels.idle, { useInnerText: true });
    await expect(emailField(page)).toBeFocused();
    expect(await states()).toEqual([idle, sending, idle]);
    await expectRequestsFor(page, waitlistRequests, ['ada@example.com']);
  });

  test('(c) Enter on an empty field: "Email Required", no request', async ({ page, waitlistRequests }) => {
    const release = await openWithFormCodeHeld(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(submitButton(page)).toHaveText(buttonLabels.idle, { useInnerText: true });
    release();
    await expect(toast(page, messages.emailRequired)).toBeVisible(ARRIVAL);
    await expect(emailField(page)).toBeFocused();
    await expectRequestsFor(page, waitlistRequests, []);
  });

  test('(d) a malformed address: "Invalid Email", no request, the address kept', async ({ page, waitlistRequests }) => {
    const release = await openWithFormCodeHeld(page);
    await typeAndSubmit(page, 'ada@example');
    release();
    await expect(toast(page, messages.invalidEmail)).toBeVisible(ARRIVAL);
    await expect(emailField(page)).toHaveValue('ada@example');
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true');
    await expectRequestsFor(page, waitlistRequests, []);
  });

  test('a corrected address submitted again while held replaces the first submit', async ({
    page,
    waitlistRequests,
  }) => {
    const release = await openWithFormCodeHeld(page);
    await typeAndSubmit(page, 'ada@example');
    await typeAndSubmit(page, '.com');
    await expect(submitButton(page)).toHaveText(buttonLabels.sending, { useInnerText: true });
    release();
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expect(toast(page, messages.invalidEmail)).toHaveCount(0);
    await expectRequestsFor(page, waitlistRequests, ['ada@example.com']);
  });

  test('Enter twice, then a double click, while held: still one request', async ({ page, waitlistRequests }) => {
    const release = await openWithFormCodeHeld(page);
    await emailField(page).pressSequentially('grace@example.com', HUMAN_TYPING);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await submitButton(page).dblclick({ force: true });
    release();
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expectRequestsFor(page, waitlistRequests, ['grace@example.com']);
  });

  test('with nothing held back, a visitor who types and presses Enter is added once', async ({
    page,
    waitlistRequests,
  }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await page.keyboard.type('lin@example.com', HUMAN_TYPING);
    await page.keyboard.press('Enter');
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expectRequestsFor(page, waitlistRequests, ['lin@example.com']);
  });

  test("when the form's code fails to arrive, the submit is given back with 'Error'; the next goes through", async ({
    page,
    waitlistRequests,
  }) => {
    // The first fetch of the form's code is held until the visitor has submitted, then fails.
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    let fetches = 0;
    await page.route(FORM_CODE, async (route: Route) => {
      if ((fetches += 1) > 1) return route.fallback();
      await failing;
      await route.abort('connectionreset');
    });
    await page.goto('/');
    const states = await recordFormStates(page);
    await typeAndSubmit(page, 'ada@example.com');
    await expect(submitButton(page)).toHaveText(buttonLabels.sending, { useInnerText: true });
    fail();
    const failure = page.locator(`#${LOAD_FAILURE_ID}`);
    await expect(failure).toBeVisible(ARRIVAL);
    await expect(failure.getByText(messages.failed.title, { exact: true })).toBeVisible();
    await expect(failure.getByText(messages.failed.description, { exact: true })).toBeVisible();
    await expect(emailField(page)).toHaveValue('ada@example.com');
    await expect(emailField(page)).toBeFocused();
    expect(await states()).toEqual([idle, sending, idle]);
    await submitButton(page).click();
    await expect(failure).toBeHidden();
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    expect(fetches).toBe(2);
    await expectRequestsFor(page, waitlistRequests, ['ada@example.com']);
  });
});

test.describe('on a slow phone (network and CPU), by touch', { tag: CHROMIUM_ONLY }, () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  test.beforeEach(async ({ page }) => slowPhone(page, { cpu: true }));

  test('(b) type, tap the button: sending shown at once, then added with one request', async ({
    page,
    waitlistRequests,
  }) => {
    const release = await openWithFormCodeHeld(page);
    const states = await recordFormStates(page);
    await emailField(page).tap();
    await page.keyboard.type('ada@example.com', HUMAN_TYPING);
    await submitButton(page).tap();
    await expect(submitButton(page)).toHaveText(buttonLabels.sending, { useInnerText: true });
    await submitButton(page).tap({ force: true });
    release();
    await expect(toast(page, messages.added)).toBeVisible(ARRIVAL);
    await expect(emailField(page)).toHaveValue('');
    expect(await states()).toEqual([idle, sending, idle]);
    await expectRequestsFor(page, waitlistRequests, ['ada@example.com']);
  });
});

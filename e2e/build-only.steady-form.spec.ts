/**
 * Nothing moves that the visitor did not move (docs/product.md, "Accessibility and steadiness"):
 * the form's field and button keep their size and place from idle through sending to answered,
 * whichever script draws the sending state, and neither a toast's arrival nor its leaving
 * shifts the page. The mock's slow address holds the answer for 3 s.
 */
import type { Page } from '@playwright/test';
import { magicAddresses } from '../mocks/handlers';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages } from '../src/features/waitlist/texts/messages';
import { CHROMIUM_ONLY } from './engines';
import { emailField, expect, openLanding, settled, submitButton, test, toast } from './fixtures';
import { describeBoxes, formBoxesInPage, STEADY_WIDTHS, type FormBoxes } from './form-boxes';

const formBoxes = (page: Page) => page.evaluate(formBoxesInPage);
const sendingButton = (page: Page) => page.getByRole('button', { name: buttonLabels.sending });
const idleButton = (page: Page) => page.getByRole('button', { name: buttonLabels.idle });

/** Submits the slow address and returns the boxes while sending and once answered. */
async function boxesThroughSlowSubmit(page: Page, submit: () => Promise<void> = () => submitButton(page).click()) {
  await emailField(page).fill(magicAddresses.slow);
  await submit();
  await expect(sendingButton(page)).toBeDisabled();
  const sending = await formBoxes(page);
  await expect(toast(page, messages.added)).toBeVisible();
  await expect(idleButton(page)).toBeEnabled();
  return { sending, answered: await formBoxes(page) };
}

function expectSteady(idle: FormBoxes, { sending, answered }: { sending: FormBoxes; answered: FormBoxes }) {
  test.info().annotations.push({ type: 'form boxes', description: describeBoxes(idle) });
  expect(sending, 'while sending').toEqual(idle);
  expect(answered, 'once answered').toEqual(idle);
}

for (const width of STEADY_WIDTHS) {
  test.describe(`${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the field and the button keep their size and place through a submit', async ({ page }) => {
      await openLanding(page);
      const idle = await formBoxes(page);
      expectSteady(idle, await boxesThroughSlowSubmit(page));
    });

    test('the same when the first script draws the sending state', async ({ page }) => {
      // The form's code is held until the submit is in: the page's first script shows it as sending.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/waitlist-*.js', async (route) => {
        await released;
        await route.fallback();
      });
      await page.goto('/');
      const idle = await formBoxes(page);
      const boxes = await boxesThroughSlowSubmit(page, async () => {
        await emailField(page).press('Enter');
        await expect(sendingButton(page)).toBeDisabled();
        release();
      });
      expectSteady(idle, boxes);
    });
  });
}

/** Every layout shift Chromium reports from now on, read with `takeRecords()` so none is still queued. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: string[] = [];
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    const record = (entries: PerformanceEntry[]) =>
      entries.forEach((entry) => {
        const { value, sources } = entry as PerformanceEntry & { value: number; sources: { node?: Node }[] };
        const nodes = sources.map(({ node }) =>
          node instanceof Element ? node.outerHTML.slice(0, 80) : node?.nodeName,
        );
        shifts.push(`${value.toFixed(4)} at ${entry.startTime.toFixed(0)} ms: ${nodes.join(', ')}`);
      });
    observer.observe({ type: 'layout-shift', buffered: true });
    Object.assign(window, {
      layoutShifts: () => {
        record(observer.takeRecords());
        return shifts.splice(0);
      },
    });
  });
  return () => page.evaluate(() => (window as unknown as { layoutShifts: () => string[] }).layoutShifts());
}

for (const width of [390, 1280]) {
  test(`no layout shift while sending, nor as a toast comes and goes, ${width} px wide ${CHROMIUM_ONLY}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const layoutShifts = await watchLayoutShifts(page);
    await openLanding(page);
    await settled(page);
    await layoutShifts();
    await boxesThroughSlowSubmit(page);
    await toast(page, messages.added).getByRole('button', { name: 'Close toast' }).click();
    await expect(toast(page, messages.added)).toHaveCount(0);
    expect(await layoutShifts()).toEqual([]);
  });
}

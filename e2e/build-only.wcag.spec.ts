/**
 * WCAG 2.2 AA beyond what axe sees (docs/product.md, "Accessibility and steadiness"): non-text
 * contrast of every control's boundary, focus indicator and the spinner, from computed styles
 * (SC 1.4.11); the button at rest after a tap on a touch screen; every toast in the page's voice
 * and under axe; reflow at 320 CSS px (a 1280 px window at 400 % zoom) and 640 (200 %); targets
 * of 24 × 24 px (SC 2.5.8); focus not hidden by a toast (SC 2.4.11).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { magicAddresses } from '../mocks/handlers';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages, type ToastMessage } from '../src/features/waitlist/texts/messages';
import { CHROMIUM_ONLY } from './engines';
import { emailField, expect, join, openLanding, settled, submitButton, test, toast } from './fixtures';
import { lookOf, pageBackground, Ratios } from './page-look';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const closeButton = (page: Page) => page.getByRole('button', { name: 'Close toast' });

/** No WCAG 2.2 AA violation axe finds on the page, or inside `only` (a CSS selector). */
async function expectNoAxeViolations(page: Page, only?: string) {
  const axe = new AxeBuilder({ page }).withTags(WCAG_22_AA);
  const { violations } = await (only ? axe.include(only) : axe).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

function expectRatios(ratios: Ratios) {
  test.info().annotations.push({ type: 'contrast', description: ratios.report() });
  expect(ratios.short(), ratios.report()).toEqual([]);
}

async function expectTarget(target: Locator, what: string) {
  const box = (await target.boundingBox())!;
  expect(box.width, `${what}: width`).toBeGreaterThanOrEqual(24);
  expect(box.height, `${what}: height`).toBeGreaterThanOrEqual(24);
}

test("the form's boundaries, focus indicators and spinner stand 3:1 against what surrounds them", async ({ page }) => {
  await openLanding(page);
  const background = await pageBackground(page);
  const ratios = new Ratios();
  const field = emailField(page);
  const button = submitButton(page);

  let look = await lookOf(field, background);
  ratios.add("field's edge against its fill", look.edge, look.fill);
  ratios.add("field's edge against the page", look.edge, background);
  await page.keyboard.press('Tab');
  await expect(field).toBeFocused();
  look = await lookOf(field, background);
  ratios.add("field's focus outline against the page", look.outline, background);
  expect(look.outlineWidth, "the field's focus outline").toBeGreaterThanOrEqual(2);

  look = await lookOf(button, background);
  ratios.add("button's fill against the page", look.fill, background);
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  look = await lookOf(button, background);
  ratios.add("button's focus outline against the page", look.outline, background);
  expect(look.outlineWidth, "the button's focus outline").toBeGreaterThanOrEqual(2);

  await button.hover();
  look = await lookOf(button, background);
  ratios.add("hovered button's fill against the page", look.fill, background);
  ratios.add('hovered label against the fill', look.text, look.fill, 4.5);
  await page.mouse.down();
  look = await lookOf(button, background);
  ratios.add("pressed button's fill against the page", look.fill, background);
  ratios.add('pressed label against the fill', look.text, look.fill, 4.5);
  await page.mouse.up(); // an empty field: 'Email Required'

  const shown = toast(page, messages.emailRequired);
  await expect(shown).toBeVisible();
  // The pointer on the toast's corner keeps it (sonner pauses), away from the close button.
  await shown.hover({ position: { x: 4, y: 4 } });
  await settled(page); // its fade-in ended
  const toastLook = await lookOf(shown, background);
  ratios.add("toast's edge against the page", toastLook.edge, background);
  look = await lookOf(closeButton(page), toastLook.fill);
  ratios.add("close button's edge against the toast", look.edge, toastLook.fill);
  ratios.add("close button's cross against the toast", look.text, toastLook.fill);
  // sonner's hotkey moves focus into the toasts: the toast, then its close button.
  await page.keyboard.press('Alt+KeyT');
  await page.keyboard.press('Tab');
  await expect(shown).toBeFocused();
  ratios.add("toast's focus outline against the page", (await lookOf(shown, background)).outline, background);
  await page.keyboard.press('Tab');
  await expect(closeButton(page)).toBeFocused();
  look = await lookOf(closeButton(page), toastLook.fill);
  ratios.add("close button's focus outline against the toast", look.outline, toastLook.fill);
  await page.keyboard.press('Enter');
  await expect(shown).toHaveCount(0);

  await join(page, magicAddresses.slow);
  const sending = page.getByRole('button', { name: buttonLabels.sending });
  await expect(sending).toBeDisabled();
  look = await lookOf(sending, background);
  ratios.add("spinner's arc against the button", look.spinner, look.fill);
  ratios.add('sending label against the button', look.text, look.fill, 4.5);
  await expect(toast(page, messages.added)).toBeVisible();
  expectRatios(ratios);
});

test("the not-found page's link: its focus outline 3:1, a 24 × 24 target", async ({ page }) => {
  await page.goto('/missing');
  const link = page.getByRole('link', { name: 'Return to Home' });
  await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  const background = await pageBackground(page);
  const ratios = new Ratios();
  ratios.add("link's focus outline against the page", (await lookOf(link, background)).outline, background);
  expectRatios(ratios);
  await expectTarget(link, 'Return to Home');
});

/**
 * Forces the button's pseudo-classes through DevTools: emulated touch in headless Chromium sets
 * neither :hover nor :active, which a phone's browser does (a tapped element keeps :hover).
 */
async function forceButtonState(page: Page, pseudoClasses: ('hover' | 'active')[]) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#waitlist-form button' });
  await cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: pseudoClasses });
}

test.describe('on a touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test(`the button is at rest after a tap, and shows a press ${CHROMIUM_ONLY}`, async ({ page }) => {
    await openLanding(page);
    expect(await page.evaluate(() => matchMedia('(hover: hover)').matches), 'a screen without hover').toBe(false);
    const button = submitButton(page);
    const background = await pageBackground(page);
    const atRest = (await lookOf(button, background)).fill;

    await button.tap(); // an empty field: 'Email Required'
    await expect(toast(page, messages.emailRequired)).toBeVisible();
    await forceButtonState(page, ['hover']); // what the tap leaves behind on a phone
    expect((await lookOf(button, background)).fill, 'at rest after a tap').toEqual(atRest);

    await forceButtonState(page, ['hover', 'active']); // the finger down
    const pressed = (await lookOf(button, background)).fill;
    expect(pressed, 'pressed').not.toEqual(atRest);
    const ratios = new Ratios();
    ratios.add("pressed button's fill against the page", pressed, background);
    expectRatios(ratios);
  });
});

/** Each toast, and what brings it up from the form. */
const everyToast: [ToastMessage, string][] = [
  [messages.emailRequired, ''],
  [messages.invalidEmail, 'ada@example'],
  [messages.alreadyRegistered, 'taken@example.com'],
  [messages.failed, magicAddresses.error],
  [messages.added, 'new@example.com'],
];

for (const width of [320, 1280]) {
  test(`every toast at ${width} px: the page's type, marked by kind, read once, on screen, no axe violation`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await openLanding(page);
    const pageFont = await page.locator('body').evaluate((body) => getComputedStyle(body).fontFamily);
    for (const [message, address] of everyToast) {
      await join(page, address);
      const shown = toast(page, message);
      await expect(shown).toBeVisible();
      await shown.hover(); // sonner keeps a toast while the pointer is on it
      await settled(page);
      expect(await shown.evaluate((node) => getComputedStyle(node).fontFamily)).toBe(pageFont);
      // The marker is seen, never read: the accessible text is the title and the text, once each.
      const marker = { destructive: '[!]', notice: '[i]', success: '[+]' }[message.kind];
      await expect(shown).toContainText(marker);
      expect(await shown.ariaSnapshot()).not.toContain(marker);
      await expect(shown.getByText(message.title, { exact: true })).toHaveCount(1);
      await expect(shown.getByText(message.description, { exact: true })).toHaveCount(1);
      const box = (await shown.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await expectTarget(shown.getByRole('button', { name: 'Close toast' }), 'close button');
      // The page around it is the one the reflow tests below check whole.
      await expectNoAxeViolations(page, 'section[aria-label^="Notifications"]');
      await shown.getByRole('button', { name: 'Close toast' }).click();
      await expect(shown).toHaveCount(0);
    }
  });
}

/** Nothing wider than the viewport: no scrolling sideways (SC 1.4.10). */
async function expectReflow(page: Page, width: number) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `content wider than ${width} px`).toBe(0);
}

for (const width of [320, 640]) {
  test(`at ${width} CSS px (zoom ${(1280 / width) * 100} % of 1280 px) both pages reflow, targets are 24 × 24`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 640 });
    await openLanding(page);
    await settled(page);
    await expectReflow(page, width);
    await expectNoAxeViolations(page);
    await expectTarget(emailField(page), 'field');
    await expectTarget(submitButton(page), 'button');
    await join(page, '');
    await expect(toast(page, messages.emailRequired)).toBeVisible();
    await expectReflow(page, width);

    await page.goto('/missing');
    await settled(page);
    await expectReflow(page, width);
    await expectNoAxeViolations(page);
  });
}

test('a toast never hides the field that receives focus, 320 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 568 });
  await openLanding(page);
  // The button at the very top of the screen: the field above it is out of sight.
  await submitButton(page).evaluate((button) => button.scrollIntoView({ block: 'start' }));
  await submitButton(page).click();
  const shown = toast(page, messages.emailRequired);
  await expect(shown).toBeVisible();
  await expect(emailField(page)).toBeFocused();
  await settled(page);
  const field = (await emailField(page).boundingBox())!;
  const cover = (await shown.boundingBox())!;
  const hidden = field.y >= cover.y && field.y + field.height <= cover.y + cover.height;
  expect(hidden, `field at ${field.y}–${field.y + field.height}, toast at ${cover.y}–${cover.y + cover.height}`).toBe(
    false,
  );
  expect(field.y + field.height, 'the field within the screen').toBeLessThanOrEqual(568);
  expect(field.y, 'the field within the screen').toBeGreaterThanOrEqual(0);
});

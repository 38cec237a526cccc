/**
 * How long a toast stays (docs/product.md, "Toasts: kinds and look"; WCAG 2.2.1): every toast but
 * the success toast until the visitor closes it or submits again; the success toast 12 s, and any
 * toast while the pointer is on it or focus is in it. The page's clock is moved, not waited for.
 */
import { magicAddresses } from '../mocks/handlers';
import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, join, openLanding, submitButton, test, toast } from './fixtures';

test.beforeEach(async ({ page }) => {
  await page.clock.install();
  await openLanding(page);
});

test('a toast that asks for something stays until closed or until the next submit', async ({ page }) => {
  await join(page, magicAddresses.error);
  const failed = toast(page, messages.failed);
  await expect(failed).toBeVisible();
  await page.clock.runFor('00:10');
  await expect(failed).toBeVisible();
  // The next submit replaces it.
  await emailField(page).fill('');
  await submitButton(page).click();
  const required = toast(page, messages.emailRequired);
  await expect(required).toBeVisible();
  await expect(failed).toHaveCount(0);
  await page.clock.runFor('01:00');
  await expect(required).toBeVisible();
  await required.getByRole('button', { name: 'Close toast' }).click();
  await expect(required).toHaveCount(0);
});

test('the success toast shows for 12 s, and stays while hovered or focused', async ({ page }) => {
  await join(page, 'ada@example.com');
  const added = toast(page, messages.added);
  await expect(added).toBeVisible();
  await page.clock.runFor('00:09');
  await expect(added).toBeVisible();
  await added.hover();
  await page.clock.runFor('00:30');
  await expect(added).toBeVisible();
  await page.mouse.move(10, 10);
  await page.clock.runFor('00:04');
  await expect(added).toHaveCount(0);

  await join(page, 'grace@example.com');
  await expect(added).toBeVisible();
  await page.mouse.move(10, 10);
  await page.keyboard.press('Alt+KeyT');
  await page.keyboard.press('Tab');
  await expect(added).toBeFocused();
  await page.clock.runFor('00:30');
  await expect(added).toBeVisible();
});

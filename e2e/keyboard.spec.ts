import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, openLanding, submitButton, test, toast } from './fixtures';

test('the whole flow works from the keyboard alone', async ({ page }) => {
  await page.goto('/');
  await expect(emailField(page)).toBeEditable();
  await page.keyboard.press('Tab');
  await expect(emailField(page)).toBeFocused();
  await page.keyboard.type('ada@example.com');
  // Focusing the field fetched the form's code; the button is live once it has run.
  await expect(submitButton(page)).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(submitButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toast(page, messages.added)).toBeVisible();
  // Focus comes back to the field for the next address.
  await expect(emailField(page)).toBeFocused();
});

test('keyboard only: field → Alt+T → the toast → its close button → back in the field, text kept', async ({ page }) => {
  await openLanding(page);
  await emailField(page).focus();
  await page.keyboard.type('ada@example');
  await page.keyboard.press('Enter');
  const shown = toast(page, messages.invalidEmail);
  await expect(shown).toBeVisible();
  const region = page.getByRole('region', { name: /Notifications/ });
  await expect(region).toHaveAttribute('aria-live', 'polite');
  // sonner's hotkey (announced in the region's name) moves focus into the toasts.
  await page.keyboard.press('Alt+KeyT');
  await page.keyboard.press('Tab');
  await expect(shown).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(shown.getByRole('button', { name: 'Close toast' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(shown).toHaveCount(0);
  await expect(emailField(page)).toBeFocused();
  await expect(emailField(page)).toHaveValue('ada@example');
});

import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, openLanding, test, toast } from './fixtures';

// What the request holds: insert-email.test.ts (the same supabase-js call, through the mock).
test('Enter held down sends one request', async ({ page, waitlistRequests }) => {
  await openLanding(page);
  await emailField(page).fill('ada@example.com');
  await emailField(page).focus();
  // A held key repeats keydown; dispatch the repeats straight to the form as a browser would.
  await page.keyboard.down('Enter');
  await page.keyboard.down('Enter');
  await page.keyboard.down('Enter');
  await page.keyboard.up('Enter');
  await expect(toast(page, messages.added)).toBeVisible();
  expect(waitlistRequests).toHaveLength(1);
});

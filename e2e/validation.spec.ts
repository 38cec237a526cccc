import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, join, openLanding, test, toast } from './fixtures';

// The empty field's toast: waitlist-form.test.tsx; which addresses are malformed: email.test.ts.
test('a malformed address gets the "Invalid Email" toast, no request, and stays in the field', async ({
  page,
  waitlistRequests,
}) => {
  const email = 'ada lovelace@example.com';
  await openLanding(page);
  await join(page, email);
  await expect(toast(page, messages.invalidEmail)).toBeVisible();
  await expect(emailField(page)).toHaveValue(email);
  await expect(emailField(page)).toBeFocused();
  // A valid submission after the refused one: the only request on the wire must be its own.
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();
  expect(waitlistRequests).toHaveLength(1);
});

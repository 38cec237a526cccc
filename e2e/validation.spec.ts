import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, join, openLanding, test, toast, type Page } from './fixtures';

/** A valid submission after the refused one: the only request on the wire must be its own. */
async function expectOnlyTheNextRequest(page: Page, requests: unknown[]) {
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();
  expect(requests).toHaveLength(1);
}

test('an empty field gets the destructive "Email Required" toast and no request', async ({
  page,
  waitlistRequests,
}) => {
  await openLanding(page);
  await join(page, '');
  await expect(toast(page, messages.emailRequired)).toBeVisible();
  await expect(toast(page, messages.emailRequired)).toHaveAttribute('data-type', 'error');
  await expectOnlyTheNextRequest(page, waitlistRequests);
});

for (const email of ['ada@example', 'ada lovelace@example.com', 'ada@@example.com']) {
  test(`"${email}" gets the "Invalid Email" toast, no request, and stays in the field`, async ({
    page,
    waitlistRequests,
  }) => {
    await openLanding(page);
    await join(page, email);
    await expect(toast(page, messages.invalidEmail)).toBeVisible();
    await expect(emailField(page)).toHaveValue(email);
    await expect(emailField(page)).toBeFocused();
    await expectOnlyTheNextRequest(page, waitlistRequests);
  });
}

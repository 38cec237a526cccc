import { magicAddresses } from '../mocks/handlers';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, join, openLanding, submitButton, test, toast } from './fixtures';
import { idle, recordFormStates, sending } from './form-states';

test.beforeEach(async ({ page }) => openLanding(page));

test('a new address is added: success toast, field cleared', async ({ page }) => {
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();
  await expect(emailField(page)).toHaveValue('');
  await expect(submitButton(page)).toHaveText(buttonLabels.idle, { useInnerText: true });
});

test('the list survives a reload', async ({ page }) => {
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();
  await openLanding(page);
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.alreadyRegistered)).toBeVisible();
});

for (const [failure, email] of [
  ['a 500 from the database', magicAddresses.error],
  ['a network failure', magicAddresses.offline],
  ['a non-JSON 502 from a proxy', magicAddresses.badGateway],
  ['a refusal by row-level security', magicAddresses.denied],
  ['the signup limit', magicAddresses.limited],
]) {
  test(`${failure}: "Error" toast, logged to the console, field kept`, async ({ page }) => {
    const logged = page.waitForEvent(
      'console',
      (m) => m.type() === 'error' && m.text().includes('Could not join the waiting list'),
    );
    await join(page, email);
    await expect(toast(page, messages.failed)).toBeVisible();
    await logged;
    await expect(emailField(page)).toHaveValue(email);
    await expect(emailField(page)).toBeEnabled();
  });
}

test('a slow answer shows the submitting state until it arrives', async ({ page }) => {
  await emailField(page).fill(magicAddresses.slow);
  const states = await recordFormStates(page);
  await submitButton(page).click();
  await expect(toast(page, messages.added)).toBeVisible({ timeout: 10_000 });
  await expect(emailField(page)).toBeEnabled();
  // Input and button off, spinner and label on, for as long as the answer took; then idle.
  expect(await states()).toEqual([idle, sending, idle]);
});

test('a retry after a failure succeeds', async ({ page }) => {
  await join(page, magicAddresses.flaky);
  await expect(toast(page, messages.failed)).toBeVisible();
  await expect(emailField(page)).toHaveValue(magicAddresses.flaky);
  await submitButton(page).click();
  await expect(toast(page, messages.added)).toBeVisible();
  await expect(emailField(page)).toHaveValue('');
});

import { messages } from '../src/features/waitlist/texts/messages';
import { expect, join, openLanding, test, toast } from './fixtures';

test('/?reset-mock empties the mock list back to its seed, and the console says how', async ({ page, baseURL }) => {
  const backend = page.waitForEvent('console', (message) => message.text().startsWith('Backend: mock'));
  await openLanding(page);
  expect((await backend).text()).toContain(`Empty the mock list: ${baseURL}/?reset-mock`);
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();

  await page.goto('/?reset-mock');
  await expect(page).toHaveURL('/');
  await page.mouse.move(10, 10);
  await join(page, 'ada@example.com');
  await expect(toast(page, messages.added)).toBeVisible();
  await join(page, 'taken@example.com');
  await expect(toast(page, messages.alreadyRegistered)).toBeVisible();
});

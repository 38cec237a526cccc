import { expect, openLanding, test } from './fixtures';

/**
 * Runs before the dev project. A fresh clone's dev server transforms every module on first
 * request; that happens here, with room for it, not inside the first tests' waits. And the
 * run stops at once if the page under test is not on the mock backend.
 */
test('the dev server has compiled the page, which runs on the mock backend', async ({ page }) => {
  test.setTimeout(120_000);
  const backend = page.waitForEvent('console', {
    predicate: (message) => message.text().startsWith('Backend:'),
    timeout: 90_000,
  });
  await page.goto('/');
  expect((await backend).text()).toMatch(/^Backend: mock \(MSW\)\./);
  await openLanding(page, { timeout: 90_000 });
});

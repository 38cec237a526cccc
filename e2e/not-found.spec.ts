import { expect, test } from './fixtures';

test('an unknown path shows the not-found page and logs the path', async ({ page }) => {
  const logged = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().includes('/no/such/page'));
  await page.goto('/no/such/page');
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByText('Oops! Page not found', { exact: true })).toBeVisible();
  await logged;
});

test('"Return to Home" is a plain link to /, working before any script has run', async ({ page }) => {
  await page.goto('/missing');
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'COMING SOON' })).toBeVisible();
});

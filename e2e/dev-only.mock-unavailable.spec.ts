import { messages } from '../src/features/waitlist/texts/messages';
import { expect, join, openLanding, test, toast } from './fixtures';

const notice = (page: Parameters<typeof openLanding>[0]) =>
  page.getByRole('complementary', { name: 'Development notice' });

test.describe('service workers blocked (turned off, or an untrusted HTTPS certificate)', () => {
  test.use({ serviceWorkers: 'block' });

  test('the page renders, a notice says the mock could not start, and a submit answers Error', async ({ page }) => {
    const warning = page.waitForEvent('console', (message) => message.text().startsWith('Backend: mock (MSW) could'));
    await openLanding(page);
    await warning;
    await expect(page.getByRole('heading', { level: 1, name: 'COMING SOON' })).toBeVisible();
    await expect(notice(page)).toContainText('The mock backend could not start');
    await expect(notice(page)).toContainText('npm run dev -- --host');

    await join(page, 'ada@example.com');
    await expect(toast(page, messages.failed)).toBeVisible();
  });
});

test('without the service worker API (an insecure origin: http://<LAN address>), the mock runs in the page', async ({
  page,
}) => {
  // What a browser offers on an insecure origin; the test itself stays on loopback.
  await page.addInitScript(() => delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker);
  const backend = page.waitForEvent('console', (message) => message.text().startsWith('Backend: mock (MSW).'));
  await openLanding(page);
  await backend;
  await join(page, 'taken@example.com');
  await expect(toast(page, messages.alreadyRegistered)).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
});

import { magicAddresses } from '../mocks/handlers';
import { messages } from '../src/features/waitlist/texts/messages';
import { expect, join, openLanding, test, toast } from './fixtures';

/**
 * The dev server's own path: MSW's service worker answers the page. The whole catalogue runs on
 * the build (catalogue.spec.ts, the same handlers routed by Playwright); here, that each kind of
 * answer crosses the worker intact: a row added, a 409, a 500, a dropped connection, a non-JSON 502.
 */
test('every kind of answer crosses the mock service worker to the toast', async ({ page, waitlistRequests }) => {
  await openLanding(page);
  await expect(page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).resolves.toMatch(
    /\/mockServiceWorker\.js$/,
  );
  const answers = [
    ['worker@example.com', messages.added],
    ['taken@example.com', messages.alreadyRegistered],
    [magicAddresses.error, messages.failed],
    [magicAddresses.offline, messages.failed],
    [magicAddresses.badGateway, messages.failed],
  ] as const;
  for (const [email, message] of answers) {
    await join(page, email);
    await expect(toast(page, message)).toBeVisible();
    // Closed by the visitor: no toast with the same words is left to answer for the next submit.
    await toast(page, message).getByRole('button', { name: 'Close toast' }).click();
    await expect(toast(page, message)).toHaveCount(0);
  }
  expect(waitlistRequests.map((request) => request.postDataJSON().email)).toEqual(answers.map(([email]) => email));
});

import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, join, openLanding, test, toast } from './fixtures';

test('one POST of {"email": …} to the table, with the public key, asking nothing back', async ({
  page,
  waitlistRequests,
}) => {
  await openLanding(page);
  await join(page, '  ada@example.com ');
  await expect(toast(page, messages.added)).toBeVisible();

  expect(waitlistRequests).toHaveLength(1);
  const [request] = waitlistRequests;
  const url = new URL(request.url());
  expect(request.method()).toBe('POST');
  expect(url.pathname).toBe('/rest/v1/waiting_list');
  expect(url.search).toBe('');
  const headers = await request.allHeaders();
  expect(headers['apikey']).toBeTruthy();
  expect(headers['authorization']).toBe(`Bearer ${headers['apikey']}`);
  expect(headers['prefer']).toBeUndefined();
  expect(request.postDataJSON()).toEqual({ email: 'ada@example.com' });
});

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

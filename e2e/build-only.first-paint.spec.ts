import { messages } from '../src/features/waitlist/texts/messages';
import { emailField, expect, submitButton, test, toast } from './fixtures';

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });

  test('the landing page is all there, prerendered', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'COMING SOON' })).toBeVisible();
    await expect(page.getByText('TO CHANGE THE INDUSTRY', { exact: true })).toBeVisible();
    await expect(page.getByText(/zero tolerance for breaches/)).toBeVisible();
    await expect(emailField(page)).toBeVisible();
    await expect(page.getByPlaceholder('Enter your email address')).toBeVisible();
    await expect(page.getByText('Early access • Priority notifications • Exclusive updates')).toBeVisible();
    for (const status of ['DEFENSE SYSTEMS ONLINE', 'THREAT MONITORING ACTIVE', 'LAUNCH IMMINENT']) {
      await expect(page.getByText(status, { exact: true })).toBeVisible();
    }
  });

  test('a submit does nothing: the address never reaches a URL or a request, and stays typed', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto('/');
    requests.length = 0;
    await emailField(page).fill('ada@example.com');
    await submitButton(page).click();
    await emailField(page).press('Enter');
    expect(page.url()).not.toContain('ada');
    expect(requests).toEqual([]);
    await expect(emailField(page)).toHaveValue('ada@example.com');
  });
});

/**
 * The Permissions-Policy names the features Chromium 156 knows (vite/security-headers.ts); another
 * version may not know one of them, and says so. That is the one message other versions may log.
 */
const LIST_MADE_FOR = 156;
const otherVersionsFeature = (text: string, major: number) =>
  major !== LIST_MADE_FOR && /^Error with Permissions-Policy header: Unrecognized feature/.test(text);

test('the page loads and the form hydrates without an error, a warning or a layout shift', async ({
  page,
  browser,
}) => {
  const major = Number(browser.version().split('.')[0]);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // Warnings too: the browser warns of a header it does not understand (e.g. a Permissions-Policy feature).
  page.on('console', (message) => {
    if (!['error', 'warning'].includes(message.type()) || otherVersionsFeature(message.text(), major)) return;
    problems.push(message.text());
  });
  // Every layout shift that counts towards CLS (not one right after a click or a key).
  await page.addInitScript(() => {
    const shifts: number[] = ((window as unknown as { shifts: number[] }).shifts = []);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/');
  await page.mouse.move(10, 10);
  // The form's code has hydrated over the prerendered form once a submit gets its answer.
  await emailField(page).fill('');
  await submitButton(page).click();
  await expect(toast(page, messages.emailRequired)).toBeVisible();
  expect(problems).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
});

test('what is typed before the scripts arrive is kept, and can be sent', async ({ page }) => {
  let release!: () => void;
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld;
    await route.fallback();
  });
  await page.goto('/', { waitUntil: 'commit' });
  await emailField(page).pressSequentially('early@example.com');
  release();
  // Until the page's first script has run, a submit does nothing (as without JavaScript); it
  // runs before DOMContentLoaded, like every module script.
  await page.waitForLoadState('domcontentloaded');
  await page.mouse.move(10, 10);
  await expect(emailField(page)).toHaveValue('early@example.com');
  await submitButton(page).click();
  await expect(toast(page, messages.added)).toBeVisible();
});

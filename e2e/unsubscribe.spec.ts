/**
 * The /unsubscribe page the body's link opens (docs/product.md, decisions), on the build, against
 * the mock of the unsubscribe function (mocks/handlers.ts): opening it sends nothing; one click
 * sends RFC 8058's one-click POST and says what the function answered.
 */
import { randomBytes } from 'node:crypto';
import type { Request } from '@playwright/test';
import { TEST_TOKEN } from '../contracts/unsubscribe-token';
import { UNSUBSCRIBE_IDS, unsubscribeTexts as texts } from '../src/pages/unsubscribe';
import { expect, test, type Page } from './fixtures';

const FUNCTION = '/functions/v1/unsubscribe';
/** A token of a real one's shape, which the mock answers 200. */
const token = randomBytes(64).toString('base64url');

/** Opens the page with `fragment` once its script has wired the button; returns the requests to the function. */
async function open(page: Page, fragment: string) {
  const posts: Request[] = [];
  page.on('request', (request) => new URL(request.url()).pathname === FUNCTION && posts.push(request));
  await page.goto(`/unsubscribe${fragment}`);
  return posts;
}
const button = (page: Page) => page.getByRole('button', { name: texts.button });
// The page's one live region: read as the page's text (a status role is read as "statusbar" by Orca).
const status = (page: Page) => page.locator(`#${UNSUBSCRIBE_IDS.status}[aria-live="polite"]`);

test('opening the page sends nothing; a click sends the one-click POST with the link’s token, then says done', async ({
  page,
}) => {
  const posts = await open(page, `#${token}`);
  await expect(button(page)).toBeEnabled();
  await expect(status(page)).toHaveText(texts.ask);
  await page.waitForLoadState('networkidle');
  expect(posts).toEqual([]);
  await button(page).click();
  await expect(status(page)).toHaveText(texts.done);
  await expect(button(page)).toBeHidden();
  expect(posts).toHaveLength(1);
  const [post] = posts;
  expect(post.method()).toBe('POST');
  expect(post.postData()).toBe('List-Unsubscribe=One-Click');
  expect(await post.headerValue('content-type')).toMatch(/^application\/x-www-form-urlencoded\b/);
  expect(new URL(post.url()).searchParams.get('token')).toBe(token);
});

test('a test message’s link (or an altered one) changes nothing, and the page says so', async ({ page }) => {
  await open(page, `#${TEST_TOKEN}`);
  await button(page).click();
  await expect(status(page)).toHaveText(texts.notValid);
  await expect(button(page)).toBeHidden();
});

test('when the function cannot record it, the page says to try again later, and the button stays', async ({ page }) => {
  await page.route(`**${FUNCTION}?*`, (route) =>
    route.fulfill({ status: 503, headers: { 'access-control-allow-origin': '*' }, body: 'later' }),
  );
  await open(page, `#${token}`);
  await button(page).click();
  await expect(status(page)).toHaveText(texts.later);
  await expect(button(page)).toBeEnabled();
});

test('without a token the page says how to use the link, and offers no button', async ({ page }) => {
  await open(page, '');
  await expect(status(page)).toHaveText(texts.noLink);
  await expect(button(page)).toBeHidden();
});

test('works from the keyboard alone', async ({ page }) => {
  await open(page, `#${token}`);
  await expect(button(page)).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(button(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveText(texts.done);
  // The button goes; focus stays in the page, on the words that replaced it.
  await expect(status(page)).toBeFocused();
});

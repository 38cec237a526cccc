import { randomBytes } from 'node:crypto';
import { UNSUBSCRIBE_IDS, unsubscribeTexts as texts } from '../src/pages/unsubscribe';
import { expect, test } from './fixtures';

test('on the dev server the /unsubscribe page works offline, on the mock of the function', async ({ page }) => {
  await page.goto(`/unsubscribe#${randomBytes(64).toString('base64url')}`);
  await page.getByRole('button', { name: texts.button }).click();
  await expect(page.locator(`#${UNSUBSCRIBE_IDS.status}`)).toHaveText(texts.done);
});

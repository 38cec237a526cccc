import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { expect, openLanding, test } from './fixtures';

test('shows every element of the landing page, top to bottom', async ({ page }) => {
  await openLanding(page);
  const main = page.getByRole('main');
  const inOrder = [
    main.getByRole('group', { name: 'System console' }),
    main.getByRole('heading', { level: 1, name: 'COMING SOON' }),
    main.getByText('TO CHANGE THE INDUSTRY', { exact: true }),
    main.getByText(/operational losses attacks cause, with zero tolerance for breaches/),
    main.getByRole('textbox', { name: 'Email address' }),
    main.getByRole('button', { name: buttonLabels.idle }),
    main.getByText('Early access • Priority notifications • Exclusive updates', { exact: true }),
    main.getByText('DEFENSE SYSTEMS ONLINE', { exact: true }),
    main.getByText('THREAT MONITORING ACTIVE', { exact: true }),
    main.getByText('LAUNCH IMMINENT', { exact: true }),
  ];
  const tops: number[] = [];
  for (const element of inOrder) {
    await expect(element).toBeVisible();
    tops.push((await element.boundingBox())!.y);
  }
  expect(tops).toEqual([...tops].sort((a, b) => a - b));
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByPlaceholder('Enter your email address')).toBeVisible();
});

test('the cursor toggles visible/hidden every 1000 ms, twice, then stays shown (stopped within 5 s)', async ({
  page,
}) => {
  await openLanding(page);
  await expect(page.getByTestId('cursor')).toBeAttached();
  // Read the cursor's own animation at chosen instants (the Web Animations API seeks it), so
  // the check does not depend on how busy the machine is.
  const { visibleAt, blinking } = await page.evaluate(
    (instants) => {
      const cursor = document.querySelector('[data-testid="cursor"]')!;
      const [blink] = cursor.getAnimations();
      blink.pause();
      const visibleAt = instants.map((ms) => {
        blink.currentTime = ms;
        return getComputedStyle(cursor).opacity !== '0';
      });
      return { visibleAt, blinking: cursor.getAnimations().length };
    },
    [0, 500, 999, 1000, 1500, 1999, 2000, 2999, 3000, 3999, 4000, 5000, 6000, 60_000],
  );
  expect(visibleAt).toEqual([true, true, true, false, false, false, true, true, false, false, true, true, true, true]);
  expect(blinking, 'animations left on the cursor after 60 s').toBe(0);
});

test.describe('with reduced motion', () => {
  test.use({ contextOptions: { reducedMotion: 'reduce' } });

  test('the cursor stays visible and still, the intro is not animated', async ({ page }) => {
    await openLanding(page);
    const cursor = page.getByTestId('cursor');
    await expect(cursor).toHaveCSS('animation-name', 'none');
    await expect(cursor).toHaveCSS('opacity', '1');
    const intro = page.getByRole('group', { name: 'System console' }).locator('p').first();
    await expect(intro).toHaveCSS('animation-name', 'none');
  });
});

for (const [device, viewport, mobile] of [
  ['a 360 px phone', { width: 360, height: 740 }, true],
  ['a 1440 px desktop', { width: 1440, height: 900 }, false],
] as const) {
  test.describe(`on ${device}`, () => {
    test.use({ viewport, isMobile: mobile, hasTouch: mobile });

    test('everything fits without sideways scrolling', async ({ page }) => {
      await openLanding(page);
      await expect(page.getByRole('heading', { name: 'COMING SOON' })).toBeInViewport();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByRole('button', { name: buttonLabels.idle })).toBeVisible();
    });
  });
}

import AxeBuilder from '@axe-core/playwright';
import { expect, openLanding, settled, test, type Page } from './fixtures';

for (const [name, open] of [
  ['landing page', openLanding],
  ['not-found page', (page: Page) => page.goto('/missing')],
  ['unsubscribe page', (page: Page) => page.goto('/unsubscribe#a-token')],
] as const) {
  test(`the ${name} has no serious or critical axe violations`, async ({ page }) => {
    await open(page);
    // Judge the settled page: let the intro's fade-in finish first.
    await settled(page);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
  });
}

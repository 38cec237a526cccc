import { defineNetworkFixture, type NetworkFixture } from '@msw/playwright';
import { test as base, expect, type Page, type Request } from '@playwright/test';

export type { Page };
import { handlers, resetMockBackend } from '../mocks/handlers';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';

/** Where the mock backend runs: MSW's worker in the dev page, or Playwright's router. */
export type MockLayer = 'worker' | 'playwright';

type Fixtures = {
  mockLayer: MockLayer;
  noCspViolations: void;
  onlyTheMock: void;
  network: NetworkFixture | undefined;
  waitlistRequests: Request[];
};

export const test = base.extend<Fixtures>({
  mockLayer: ['worker', { option: true }],
  // Tests talk to the mock backend and nothing else: any request that would leave this machine
  // (a real Supabase project, say), or that the mock layer passed on unanswered, is refused
  // before it is sent, and fails the test. Routed first, so the mock layer's routes come before it.
  onlyTheMock: [
    async ({ context }, use) => {
      const escaped: string[] = [];
      const leavesTheMachine = (url: URL) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      await context.route(leavesTheMachine, (route) => {
        escaped.push(`${route.request().method()} ${route.request().url()}`);
        return route.abort('blockedbyclient');
      });
      await use();
      expect(escaped, 'requests that would have left the mock backend').toEqual([]);
    },
    { auto: true },
  ],
  // The build's mock layer: @msw/playwright answers the fake Supabase origin of the build.
  network: [
    async ({ context, mockLayer, onlyTheMock }, use) => {
      void onlyTheMock; // its catch-all route must be in place first
      if (mockLayer === 'worker') return use(undefined);
      resetMockBackend();
      const network = defineNetworkFixture({ context, handlers });
      await network.enable();
      await use(network);
      await network.disable();
    },
    { auto: true },
  ],
  // Every test fails on a Content-Security-Policy violation (the build is served with its CSP).
  noCspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on(
        'console',
        (message) => /Content Security Policy/i.test(message.text()) && violations.push(message.text()),
      );
      await page.exposeFunction('reportCspViolation', (violation: string) => violations.push(violation));
      await page.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          (window as unknown as { reportCspViolation: (v: string) => void }).reportCspViolation(
            `${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
          ),
        ),
      );
      await use();
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  waitlistRequests: async ({ page }, use) => {
    const requests: Request[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/rest/v1/waiting_list' && request.method() !== 'OPTIONS') requests.push(request);
    });
    await use(requests);
  },
});

export { expect };

export const emailField = (page: Page) => page.getByRole('textbox', { name: 'Email address' });
/** The form's button, idle or sending. */
export const submitButton = (page: Page) =>
  page.getByRole('button', { name: buttonLabels.idle }).or(page.getByRole('button', { name: buttonLabels.sending }));

/** A sonner toast, found by its title, with its description. */
export function toast(page: Page, { title, description }: { title: string; description: string }) {
  return page.locator('[data-sonner-toast]').filter({ hasText: title }).filter({ hasText: description });
}

/**
 * Opens the landing page as a visitor would: the pointer moves over it, which fetches the
 * form's code; ready once the button is enabled. In the build it is at once (a submit before
 * the form's code has arrived is held); the dev server renders the form disabled until its
 * code has loaded, which a busy machine may take seconds to serve: the wait has room for that.
 */
export async function openLanding(page: Page, { timeout = 15_000 } = {}) {
  await page.goto('/');
  await page.mouse.move(10, 10);
  await expect(submitButton(page)).toBeEnabled({ timeout });
}

export async function join(page: Page, email: string) {
  await emailField(page).fill(email);
  await submitButton(page).click();
}

/**
 * Once the page's finite animations (the intro's fade-in) have ended: the settled page. The
 * cursor's blinks, which move nothing and stop by themselves, are not waited for.
 */
export const settled = (page: Page) =>
  page.evaluate(async () => {
    const cursor = document.querySelector('[data-testid="cursor"]');
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getTiming().iterations !== Infinity && (a.effect as KeyframeEffect).target !== cursor);
    await Promise.all(finite.map((a) => a.finished));
  });

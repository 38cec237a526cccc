/**
 * A Lighthouse user flow of one signup, in a fresh headless Chromium driven by puppeteer-core:
 * the page loads, then a timespan in which the visitor focuses the email field, types an
 * address at a human pace, presses Enter and waits for the 'Successfully Added!' toast. Mobile
 * preset with devtools throttling (a timespan must be really throttled: simulated throttling
 * only models a page load). The submit goes to the mock backend the site is built against.
 * Measured in the page (Resource Timing): the form's code, i.e. the scripts requested after the
 * focus, their bytes and when the last arrived; from Enter to the toast.
 */
import { startFlow, type FlowResult, type Result } from 'lighthouse';
import { launch } from 'puppeteer-core';

const EMAIL_FIELD = '#waitlist-email';
const SUCCESS = 'Successfully Added!';
/** Milliseconds between keystrokes: a quick but human typist. */
export const KEY_DELAY_MS = 150;

export type FlowFigures = {
  inp: number | null;
  tbt: number | null;
  /** The form's code: scripts fetched after the focus, their bytes, and focus → last one's responseEnd (ms). */
  codeScripts: number;
  codeBytes: number;
  focusToCode: number | null;
  enterToToast: number;
  postUrl: string;
};
export type FlowRun = { figures: FlowFigures; html: string; result: FlowResult };

const numeric = (lhr: Result, id: string) => {
  const value = lhr.audits[id]?.numericValue;
  return typeof value === 'number' ? Math.round(value) : null;
};

/** The scripts fetched since `since` (performance.now()), in the page. */
function scriptsSince(since: number) {
  return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((entry) => entry.startTime >= since && new URL(entry.name).pathname.endsWith('.js'))
    .map(({ responseEnd, transferSize }) => ({ responseEnd, transferSize }));
}

export async function runUserFlow(url: string, chromePath: string): Promise<FlowRun> {
  const browser = await launch({
    executablePath: chromePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    let postUrl = '';
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/rest/v1/waiting_list')) postUrl = request.url();
    });
    const flow = await startFlow(page, {
      name: 'Signup',
      config: {
        extends: 'lighthouse:default',
        settings: { throttlingMethod: 'devtools', onlyCategories: ['performance'] },
      },
    });
    await flow.navigate(url, { name: 'Page load' });
    await page.waitForSelector(EMAIL_FIELD);

    await flow.startTimespan({ name: 'Signup: focus, type, Enter, toast' });
    const focusedAt = await page.evaluate(() => performance.now());
    await page.focus(EMAIL_FIELD);
    await page.keyboard.type(`bench-${Date.now()}@example.com`, { delay: KEY_DELAY_MS });
    const enteredAt = Date.now();
    await page.keyboard.press('Enter');
    await page.waitForSelector(`::-p-text(${SUCCESS})`, { visible: true, timeout: 60_000 });
    const enterToToast = Date.now() - enteredAt;
    const scripts = await page.evaluate(scriptsSince, focusedAt);
    await flow.endTimespan();

    const result = await flow.createFlowResult();
    const timespan = result.steps[1]?.lhr;
    if (!timespan) throw new Error(`the flow has ${result.steps.length} steps, not 2`);
    if (timespan.runtimeError) throw new Error(`Lighthouse: ${timespan.runtimeError.message}`);
    const lastScript = Math.max(...scripts.map((script) => script.responseEnd));
    return {
      figures: {
        inp: numeric(timespan, 'interaction-to-next-paint'),
        tbt: numeric(timespan, 'total-blocking-time'),
        codeScripts: scripts.length,
        codeBytes: scripts.reduce((sum, script) => sum + script.transferSize, 0),
        focusToCode: scripts.length ? Math.round(lastScript - focusedAt) : null,
        enterToToast,
        postUrl,
      },
      html: await flow.generateReport(),
      result,
    };
  } finally {
    await browser.close();
  }
}

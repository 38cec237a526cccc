/**
 * A Lighthouse user flow of one signup, in a fresh headless Chromium driven by puppeteer-core:
 * a navigation to the page, then a timespan in which the visitor focuses the email field, types
 * an address at a human pace, submits with Enter and waits for the 'Successfully Added!' toast.
 * The mobile preset as the navigation runs, but with devtools throttling (the same slow 4G and
 * 4× CPU figures applied to the browser itself): simulated throttling only models a page load,
 * and a timespan must be really throttled. The submit goes to the mock backend the site is built
 * against (scripts/bench/mock-backend.ts).
 *
 * Timings measured in the page (performance.now(), instrumented before the page's own scripts):
 * - focus → form code fetched: from the first focusin on #waitlist-email to the responseEnd (Resource
 *   Timing) of the last script requested after that focus (the island, supabase-js);
 * - focus → form code connected: to the first 50 ms poll that finds React's props with an onSubmit
 *   on the <form> (the island hydrated: a submit is now React's, not held);
 * - Enter → POST sent: from the Enter keydown to the startTime of the fetch to /rest/v1/waiting_list;
 * - Enter → toast: to the insertion into the DOM of an element reading 'Successfully Added!'.
 */
import { startFlow } from 'lighthouse';
import type { FlowResult, Result } from 'lighthouse';
import { launch } from 'puppeteer-core';

const EMAIL_FIELD = '#waitlist-email';
const SUCCESS = 'Successfully Added!';
/** Milliseconds between keystrokes: a quick but human typist (about 80 words a minute). */
const KEY_DELAY_MS = 150;

export type FlowFigures = {
  /** Lighthouse's figures for the timespan (milliseconds, bytes). */
  inp: number | null;
  tbt: number;
  bytes: number;
  requests: number;
  /** Measured in the page, milliseconds (see the file's comment). */
  focusToCodeFetched: number | null;
  focusToCodeConnected: number | null;
  enterToPost: number | null;
  enterToToast: number | null;
  /** Scripts fetched after the focus, and what they weighed on the wire. */
  codeRequests: number;
  codeBytes: number;
  /** The address typed, and the URL the page sent it to (as the browser requested it). */
  address: string;
  postUrl: string;
  /** LCP of the flow's navigation step (devtools throttling, so not comparable to the simulated runs). */
  navigationLcp: number;
};

/** The throttling Lighthouse applied to the timespan, as its report states it. */
export type FlowThrottling = {
  method: string;
  requestLatencyMs: number;
  downloadThroughputKbps: number;
  uploadThroughputKbps: number;
  cpuSlowdownMultiplier: number;
};

export type FlowRun = {
  figures: FlowFigures;
  keyDelayMs: number;
  throttling: FlowThrottling;
  result: FlowResult;
  html: string;
};

type PageMarks = {
  focus: number | null;
  enter: number | null;
  toast: number | null;
  connected: number | null;
  scripts: { name: string; startTime: number; responseEnd: number; transferSize: number }[];
  post: number | null;
};

/** Runs in the page before its own scripts (CDP injection, not subject to the CSP). */
function instrument(field: string, success: string) {
  const marks = { focus: null, enter: null, toast: null, connected: null } as Record<string, number | null>;
  Object.assign(window, { __benchMarks: marks });
  addEventListener(
    'focusin',
    (event) => {
      if (marks.focus !== null || !(event.target instanceof Element) || !event.target.matches(field)) return;
      marks.focus = performance.now();
      const poll = setInterval(() => {
        const form = (event.target as HTMLInputElement).form;
        const key = form && Object.keys(form).find((name) => name.startsWith('__reactProps$'));
        const props = key ? (form as unknown as Record<string, { onSubmit?: unknown }>)[key] : undefined;
        if (typeof props?.onSubmit !== 'function') return;
        marks.connected = performance.now();
        clearInterval(poll);
      }, 50);
    },
    true,
  );
  addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' && marks.enter === null) marks.enter = performance.now();
    },
    true,
  );
  new MutationObserver((records, observer) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (node.textContent?.includes(success)) {
          marks.toast = performance.now();
          observer.disconnect();
          return;
        }
  }).observe(document, { childList: true, subtree: true });
}

function readMarks(): PageMarks {
  const marks = (window as unknown as { __benchMarks: Omit<PageMarks, 'scripts' | 'post'> }).__benchMarks;
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const focus = marks.focus ?? Infinity;
  return {
    ...marks,
    scripts: entries
      .filter((entry) => entry.startTime >= focus && new URL(entry.name).pathname.endsWith('.js'))
      .map(({ name, startTime, responseEnd, transferSize }) => ({ name, startTime, responseEnd, transferSize })),
    post: entries.find((entry) => entry.name.includes('/rest/v1/waiting_list'))?.startTime ?? null,
  };
}

function numeric(lhr: Result, id: string): number | null {
  const value = lhr.audits[id]?.numericValue;
  return typeof value === 'number' ? value : null;
}

const since = (from: number | null, to: number | null) => (from === null || to === null ? null : Math.round(to - from));

export async function runUserFlow(url: string, chromePath: string): Promise<FlowRun> {
  const browser = await launch({
    executablePath: chromePath,
    headless: true, // Chromium's new headless mode (puppeteer 22+ spells 'new' as true)
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(instrument, EMAIL_FIELD, SUCCESS);
    let postUrl = '';
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/rest/v1/waiting_list')) postUrl = request.url();
    });
    const flow = await startFlow(page, {
      name: 'Signup',
      config: {
        extends: 'lighthouse:default', // the mobile preset, as the navigation runs
        settings: { throttlingMethod: 'devtools', onlyCategories: ['performance'] },
      },
    });
    await flow.navigate(url, { name: 'Page load' });
    await page.waitForSelector(EMAIL_FIELD);
    const address = `bench-${Date.now()}@example.com`;

    await flow.startTimespan({ name: 'Signup: focus, type, Enter, toast' });
    await page.focus(EMAIL_FIELD);
    await page.keyboard.type(address, { delay: KEY_DELAY_MS });
    await page.keyboard.press('Enter');
    await page.waitForSelector(`::-p-text(${SUCCESS})`, { visible: true, timeout: 60_000 });
    const marks = await page.evaluate(readMarks);
    await flow.endTimespan();

    const result = await flow.createFlowResult();
    const html = await flow.generateReport();
    const [navigation, timespan] = result.steps.map((step) => step.lhr);
    if (!navigation || !timespan) throw new Error(`the flow has ${result.steps.length} steps, not 2`);
    for (const lhr of [navigation, timespan])
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const requests = timespan.audits['network-requests']?.details;
    const navigationLcp = numeric(navigation, 'largest-contentful-paint');
    const tbt = numeric(timespan, 'total-blocking-time');
    const bytes = numeric(timespan, 'total-byte-weight');
    if (navigationLcp === null || tbt === null || bytes === null)
      throw new Error('Lighthouse gave no LCP (navigation), TBT or total byte weight (timespan)');
    const inp = numeric(timespan, 'interaction-to-next-paint');
    return {
      figures: {
        inp: inp === null ? null : Math.round(inp),
        tbt: Math.round(tbt),
        bytes: Math.round(bytes),
        requests: requests?.type === 'table' ? requests.items.length : 0,
        focusToCodeFetched: marks.scripts.length
          ? since(marks.focus, Math.max(...marks.scripts.map((script) => script.responseEnd)))
          : null,
        focusToCodeConnected: since(marks.focus, marks.connected),
        enterToPost: since(marks.enter, marks.post),
        enterToToast: since(marks.enter, marks.toast),
        codeRequests: marks.scripts.length,
        codeBytes: marks.scripts.reduce((sum, script) => sum + script.transferSize, 0),
        address,
        postUrl,
        navigationLcp: Math.round(navigationLcp),
      },
      keyDelayMs: KEY_DELAY_MS,
      throttling: {
        method: timespan.configSettings.throttlingMethod,
        requestLatencyMs: timespan.configSettings.throttling.requestLatencyMs ?? NaN,
        downloadThroughputKbps: timespan.configSettings.throttling.downloadThroughputKbps ?? NaN,
        uploadThroughputKbps: timespan.configSettings.throttling.uploadThroughputKbps ?? NaN,
        cpuSlowdownMultiplier: timespan.configSettings.throttling.cpuSlowdownMultiplier ?? NaN,
      },
      result,
      html,
    };
  } finally {
    await browser.close();
  }
}

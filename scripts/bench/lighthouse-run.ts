/**
 * One Lighthouse navigation (default config: mobile preset, simulated throttling) in a fresh
 * headless Chromium: its figures, and Lighthouse's own HTML report, which says what each figure
 * waited for.
 */
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export type Figures = Record<(typeof CATEGORIES)[number] | 'fcp' | 'lcp' | 'tbt' | 'cls' | 'bytes', number>;
export type Run = { figures: Figures; html: string; lighthouse: string; chromium: string };

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no value for ${id}`);
  return value;
}

export async function runLighthouse(url: string, chromePath: string): Promise<Run> {
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const options = { port: chrome.port, output: ['html' as const], logLevel: 'error' as const };
    const result = await lighthouse(url, { ...options, onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const scores = CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]);
    return {
      figures: {
        ...(Object.fromEntries(scores) as Record<(typeof CATEGORIES)[number], number>),
        fcp: Math.round(numeric(lhr, 'first-contentful-paint')),
        lcp: Math.round(numeric(lhr, 'largest-contentful-paint')),
        tbt: Math.round(numeric(lhr, 'total-blocking-time')),
        cls: Number(numeric(lhr, 'cumulative-layout-shift').toFixed(3)),
        bytes: Math.round(numeric(lhr, 'total-byte-weight')),
      },
      html: [result.report].flat()[0],
      lighthouse: lhr.lighthouseVersion,
      chromium: lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? 'unknown',
    };
  } finally {
    chrome.kill();
  }
}

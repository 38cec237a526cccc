/**
 * One Lighthouse run (default config: mobile preset, simulated throttling) in a fresh headless
 * Chromium, reduced to the figures the benchmark reports.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { configWithLanternAudit, LANTERN_LCP_AUDIT, type LanternLcp } from './lantern-lcp-audit.ts';

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export type Figures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Milliseconds. */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  requests: number;
};

/** An audit that cost points in a category, e.g. "seo: robots-txt — robots.txt is not valid". */
export type Cost = { category: string; id: string; title: string; detail?: string };

export type Run = {
  figures: Figures;
  costs: Cost[];
  lighthouse: string;
  chromium: string;
  lhr: Result;
  /** What the simulated LCP waited for (scripts/bench/lantern-lcp-audit.ts); undefined if that audit failed. */
  lantern?: LanternLcp;
};

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no value for ${id}`);
  return value;
}

function score(lhr: Result, category: (typeof CATEGORIES)[number]): number {
  const value = lhr.categories[category]?.score;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${category} score`);
  return Math.round(value * 100);
}

function costs(lhr: Result): Cost[] {
  return CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(({ audit }) => audit && typeof audit.score === 'number' && audit.score < 1)
      .map(({ ref, audit }) => ({ category, id: ref.id, title: audit.title, detail: audit.displayValue })),
  );
}

export async function runLighthouse(url: string, chromePath: string): Promise<Run> {
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser: string };
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES, 'bench-diagnostics'],
      },
      configWithLanternAudit,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const requests = lhr.audits['network-requests']?.details;
    return {
      figures: {
        performance: score(lhr, 'performance'),
        accessibility: score(lhr, 'accessibility'),
        bestPractices: score(lhr, 'best-practices'),
        seo: score(lhr, 'seo'),
        fcp: Math.round(numeric(lhr, 'first-contentful-paint')),
        lcp: Math.round(numeric(lhr, 'largest-contentful-paint')),
        tbt: Math.round(numeric(lhr, 'total-blocking-time')),
        cls: Number(numeric(lhr, 'cumulative-layout-shift').toFixed(4)),
        bytes: Math.round(numeric(lhr, 'total-byte-weight')),
        requests: requests?.type === 'table' ? requests.items.length : 0,
      },
      costs: costs(lhr),
      lighthouse: lhr.lighthouseVersion,
      chromium: version.Browser.replace(/^\D*/, ''),
      lhr,
      lantern: (lhr.audits[LANTERN_LCP_AUDIT]?.details as { lantern?: LanternLcp } | undefined)?.lantern,
    };
  } finally {
    chrome.kill();
  }
}

/** What stands before the LCP in one navigation report, and our LCP against the floor's, printed. */
import type { Result } from 'lighthouse';
import type { LanternLcp } from './lantern-lcp-audit.ts';
import type { Figures } from './lighthouse-run.ts';
import { kib, seconds } from './report.ts';

type Request = { path: string; bytes: number; priority: string; type: string; end: number };

/** What one navigation report says stands before the LCP. */
export type LcpDiagnosis = {
  /** Simulated (lantern), milliseconds. */
  lcp: number;
  fcp: number;
  ttfb: number;
  /** Observed in the unthrottled trace, milliseconds. */
  observedLcp: number;
  element: string;
  /** lcp-breakdown-insight's subparts (observed), milliseconds. */
  subparts: Record<string, number>;
  /** Requests that had finished when the LCP was observed: what lantern may count before it. */
  beforeLcp: Request[];
  renderBlocking: { url: string; ms: number }[];
  /** The longest chain of network-dependency-tree-insight, and its duration (observed). */
  longestChain: { paths: string[]; ms: number };
  /** Main-thread scripting per script (bootup-time, whole load, ×4 CPU simulated), milliseconds. */
  scripting: { path: string; ms: number }[];
};

type Details = { type?: string; items?: unknown[] } & Record<string, unknown>;
type ChainNode = { url: string; navStartToEndTime: number; isLongest?: boolean; children?: Record<string, ChainNode> };

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

export function lcpDiagnosis(lhr: Result): LcpDiagnosis {
  const metrics = ((lhr.audits.metrics?.details as Details | undefined)?.items?.[0] ?? {}) as Record<string, number>;
  const breakdown = ((lhr.audits['lcp-breakdown-insight']?.details as Details | undefined)?.items ?? []) as Details[];
  const subpartTable = (breakdown.find((item) => item.type === 'table')?.items ?? []) as {
    label: string;
    duration: number;
  }[];
  const node = breakdown.find((item) => item.type === 'node') as
    { selector?: string; nodeLabel?: string; snippet?: string } | undefined;
  const requests = ((lhr.audits['network-requests']?.details as Details | undefined)?.items ?? []) as {
    url: string;
    networkEndTime: number;
    transferSize: number;
    priority: string;
    resourceType: string;
  }[];
  const observedLcp = metrics.observedLargestContentfulPaint ?? NaN;
  const tree = ((lhr.audits['network-dependency-tree-insight']?.details as Details | undefined)?.items ?? []) as {
    value?: { type?: string; chains?: Record<string, ChainNode>; longestChain?: { duration: number } };
  }[];
  const network = tree.find((item) => item.value?.type === 'network-tree')?.value;
  const paths: string[] = [];
  for (let level = network?.chains; level;) {
    const next: ChainNode | undefined = Object.values(level).find((chain) => chain.isLongest);
    if (!next) break;
    paths.push(pathOf(next.url));
    level = next.children;
  }
  const blocking = ((lhr.audits['render-blocking-insight']?.details as Details | undefined)?.items ?? []) as {
    url: string;
    wastedMs: number;
  }[];
  const bootup = ((lhr.audits['bootup-time']?.details as Details | undefined)?.items ?? []) as {
    url: string;
    scripting: number;
  }[];
  return {
    lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
    fcp: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? NaN),
    ttfb: Math.round(metrics.timeToFirstByte ?? NaN),
    observedLcp: Math.round(observedLcp),
    element: node ? `${node.selector ?? node.snippet ?? '?'} ("${node.nodeLabel ?? ''}")` : '(not reported)',
    subparts: Object.fromEntries(subpartTable.map((row) => [row.label, Math.round(row.duration)])),
    beforeLcp: requests
      .filter((request) => request.networkEndTime <= observedLcp)
      .map((request) => ({
        path: pathOf(request.url),
        bytes: request.transferSize,
        priority: request.priority,
        type: request.resourceType,
        end: Math.round(request.networkEndTime),
      })),
    renderBlocking: blocking.map((item) => ({ url: pathOf(item.url), ms: Math.round(item.wastedMs) })),
    longestChain: { paths, ms: Math.round(network?.longestChain?.duration ?? 0) },
    scripting: bootup
      .filter((item) => item.scripting > 0)
      .map((item) => ({ path: pathOf(item.url), ms: Math.round(item.scripting) })),
  };
}

/** Lantern's LCP graphs as lines: every node of the pessimistic graph, marked when the optimistic one lacks it. */
function lanternLines(lantern: LanternLcp | undefined): string[] {
  if (!lantern) return ['    lantern: (not available)'];
  const key = (node: LanternLcp['optimistic'][number]) => `${node.kind} ${node.what}`;
  const optimistic = new Set(lantern.optimistic.map(key));
  const all = [
    ...lantern.pessimistic,
    ...lantern.optimistic.filter((node) => !lantern.pessimistic.some((other) => key(other) === key(node))),
  ];
  return [
    `    lantern LCP ${lantern.lcp} ms = mean of optimistic ${lantern.optimisticMs} ms and pessimistic ${lantern.pessimisticMs} ms graphs (simulated start–end):`,
    ...all.map(
      (node) =>
        `      ${`${node.start}–${node.end} ms`.padEnd(13)} ${
          node.kind === 'network'
            ? `request ${node.what} (${kib(node.bytes ?? 0)}, ${node.priority})`
            : `task ${node.observedMs} ms observed: ${node.what}`
        }${optimistic.has(key(node)) ? '' : ' [pessimistic only]'}`,
    ),
  ];
}

function describe(name: string, lcp: LcpDiagnosis, lantern: LanternLcp | undefined): string[] {
  const bytes = lcp.beforeLcp.reduce((sum, request) => sum + request.bytes, 0);
  return [
    `  ${name}: LCP ${lcp.lcp} ms simulated (FCP ${lcp.fcp} ms, TTFB ${lcp.ttfb} ms); observed LCP ${lcp.observedLcp} ms`,
    `    element: ${lcp.element}`,
    `    subparts (observed): ${
      Object.entries(lcp.subparts)
        .map(([label, ms]) => `${label} ${ms} ms`)
        .join(', ') || '(not reported)'
    }`,
    `    requests finished before the observed LCP: ${lcp.beforeLcp.length}, ${kib(bytes)}${
      lcp.beforeLcp.length
        ? ` — ${lcp.beforeLcp.map((request) => `${request.path} (${kib(request.bytes)}, ${request.priority} ${request.type}, done at ${request.end} ms)`).join('; ')}`
        : ''
    }`,
    `    render-blocking (insight): ${lcp.renderBlocking.map((item) => `${item.url} ${item.ms} ms`).join(', ') || 'none'}`,
    `    longest request chain: ${lcp.longestChain.paths.join(' → ') || '–'} (${lcp.longestChain.ms} ms observed)`,
    `    scripting (whole load): ${lcp.scripting.map((item) => `${item.path} ${item.ms} ms`).join(', ') || 'none'}`,
    ...lanternLines(lantern),
  ];
}

/** Our LCP against the floor's, run by run, with the ratio and what each median run had before its paint. */
export function floorBlock(
  runs: { figures: Figures }[],
  floorRuns: { figures: Figures }[],
  median: Figures,
  floorMedian: Figures,
  ratio: number,
  ours: { diagnosis: LcpDiagnosis; lantern?: LanternLcp },
  floor: { diagnosis: LcpDiagnosis; lantern?: LanternLcp },
): string {
  const lcpRow = (label: string, values: number[], middle: number) => [
    label,
    ...values.map((value) => seconds(value)),
    seconds(middle),
  ];
  const lines = [
    ['', ...runs.map((_, index) => `run ${index + 1}`), 'median'],
    lcpRow(
      'LCP, our page',
      runs.map((run) => run.figures.lcp),
      median.lcp,
    ),
    lcpRow(
      'LCP, the floor',
      floorRuns.map((run) => run.figures.lcp),
      floorMedian.lcp,
    ),
  ];
  const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  return [
    `Floor: /floor/ (the built page's structure around the <h1>, its inlined <style>, no script), same settings, ${floorRuns.length} runs`,
    ...lines.map((line) =>
      line
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    ),
    `LCP ratio, ours / floor: ${ratio.toFixed(2)} (${median.lcp} / ${floorMedian.lcp} ms; goal ≤ 1.10 ${ratio <= 1.1 ? '✓' : '✗'})`,
    'Before the paint (the median run of each):',
    ...describe('ours ', ours.diagnosis, ours.lantern),
    ...describe('floor', floor.diagnosis, floor.lantern),
  ].join('\n');
}

/** Medians of the runs and the printed tables, each figure beside its target; the user flow's figures. */
import type { Figures } from './lighthouse-run.ts';
import type { FlowRun } from './user-flow.ts';

type Row = {
  key: keyof Figures;
  label: string;
  format: (value: number) => string;
  /** The target, met when `meets` holds for the median. */
  target?: { text: string; meets: (value: number) => boolean };
};

const score = (value: number) => String(value);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const full = { text: '100', meets: (value: number) => value >= 100 };

export const rows: Row[] = [
  { key: 'performance', label: 'Performance', format: score, target: full },
  { key: 'accessibility', label: 'Accessibility', format: score, target: full },
  { key: 'bestPractices', label: 'Best practices', format: score, target: full },
  { key: 'seo', label: 'SEO', format: score, target: full },
  { key: 'fcp', label: 'FCP', format: seconds },
  { key: 'lcp', label: 'LCP', format: seconds, target: { text: '≤ 0.9 s', meets: (ms) => ms <= 900 } },
  {
    key: 'tbt',
    label: 'TBT',
    format: (ms) => `${Math.round(ms)} ms`,
    target: { text: '≤ 30 ms', meets: (ms) => ms <= 30 },
  },
  {
    key: 'cls',
    label: 'CLS',
    format: (cls) => cls.toFixed(3),
    target: { text: '≤ 0.01', meets: (cls) => cls <= 0.01 },
  },
  { key: 'bytes', label: 'Transferred', format: (bytes) => `${(bytes / 1024).toFixed(1)} KiB` },
  { key: 'requests', label: 'Requests', format: score },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function medians(runs: Figures[]): Figures {
  const result = {} as Figures;
  for (const { key } of rows) result[key] = median(runs.map((run) => run[key]));
  return result;
}

export function table(runs: Figures[], medianFigures: Figures): string {
  const header = ['', ...runs.map((_, index) => `run ${index + 1}`), 'median', 'target', ''];
  const body = rows.map(({ key, label, format, target }) => [
    label,
    ...runs.map((run) => format(run[key])),
    format(medianFigures[key]),
    target?.text ?? '',
    target ? (target.meets(medianFigures[key]) ? '✓' : '✗') : '',
  ]);
  const lines = [header, ...body];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  return lines
    .map((line) =>
      line
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    )
    .join('\n');
}

/** The run whose LCP is the median (the lower middle one for an even count). */
export function medianRun<T extends { figures: Figures }>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.figures.lcp - b.figures.lcp);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The user flow's figures. */
export function flowBlock(run: FlowRun, backend: string, seen: string[]): string {
  const { figures: flow, throttling } = run;
  const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);
  return [
    `User flow (Lighthouse startFlow, mobile preset, throttling: ${throttling.method.toUpperCase()}, i.e. applied by Chromium itself:`,
    `  ${throttling.requestLatencyMs} ms request latency, ${(throttling.downloadThroughputKbps / 1000).toFixed(2)} Mbit/s down, ${(throttling.uploadThroughputKbps / 1000).toFixed(2)} Mbit/s up, ${throttling.cpuSlowdownMultiplier}× CPU;`,
    '  simulated throttling does not apply to timespans, so these figures are not comparable to the navigation runs)',
    `  Timespan: focus #waitlist-email, type ${flow.address} at one key per ${run.keyDelayMs} ms, Enter, until 'Successfully Added!' is visible`,
    `  Backend: the mock (mocks/handlers.ts) at ${backend}; it received ${seen.join(', ') || 'nothing'}; the page sent the POST to ${flow.postUrl} (not upgraded to https)`,
    `  INP ${ms(flow.inp)}, TBT ${ms(flow.tbt)}, transferred ${kib(flow.bytes)} in ${flow.requests} requests during the timespan`,
    `  Form code: ${flow.codeRequests} scripts, ${kib(flow.codeBytes)}, fetched ${ms(flow.focusToCodeFetched)} after the focus (last responseEnd),`,
    `             connected ${ms(flow.focusToCodeConnected)} after the focus (React's onSubmit on the <form>, polled every 50 ms)`,
    `  After Enter: POST fetch started ${ms(flow.enterToPost)}, toast in the DOM ${ms(flow.enterToToast)}`,
    `  Flow's navigation step (devtools throttling, not comparable to the simulated runs): LCP ${ms(flow.navigationLcp)}`,
  ].join('\n');
}

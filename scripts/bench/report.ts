/** Medians of the runs and the printed table, each figure beside its target. */
import type { Figures } from './lighthouse-run.ts';

type Row = {
  key: keyof Figures;
  label: string;
  format: (value: number) => string;
  /** The target, met when `meets` holds for the median. */
  target?: { text: string; meets: (value: number) => boolean };
};

const score = (value: number) => String(value);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
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

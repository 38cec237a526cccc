/** Medians of the navigation runs, printed as a table beside their targets. */
import type { Figures } from './lighthouse-run.ts';

const ms = (value: number) => `${value} ms`;
const full = (value: number) => value >= 100;
const rows: [keyof Figures, string, (value: number) => string, string?, ((value: number) => boolean)?][] = [
  ['performance', 'Performance', String, '100', full],
  ['accessibility', 'Accessibility', String, '100', full],
  ['best-practices', 'Best practices', String, '100', full],
  ['seo', 'SEO', String, '100', full],
  ['fcp', 'FCP', ms],
  ['lcp', 'LCP', ms, '≤ 900 ms', (value) => value <= 900],
  ['tbt', 'TBT', ms, '≤ 30 ms', (value) => value <= 30],
  ['cls', 'CLS', String, '≤ 0.01', (value) => value <= 0.01],
  ['bytes', 'Transferred', (bytes) => `${(bytes / 1024).toFixed(1)} KiB`],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const medians = (runs: Figures[]) =>
  Object.fromEntries(rows.map(([key]) => [key, median(runs.map((run) => run[key]))])) as Figures;

export function table(runs: Figures[], middle: Figures): string {
  const lines = [
    ['', ...runs.map((_, index) => `run ${index + 1}`), 'median', 'target', ''],
    ...rows.map(([key, label, format, target = '', meets]) => [
      label,
      ...runs.map((run) => format(run[key])),
      format(middle[key]),
      target,
      meets ? (meets(middle[key]) ? '✓' : '✗') : '',
    ]),
  ];
  const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  return lines
    .map((line) => line.map((cell, column) => cell[column ? 'padStart' : 'padEnd'](widths[column])).join('  '))
    .join('\n');
}

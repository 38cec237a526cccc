/**
 * npm run bench:tests: the test part of .ci/run, phase by phase (what `npm test` chains, then
 * test:db-push and test:function-upload), each phase's wall time and the load average around it,
 * then the slowest test files and tests as Vitest (its reporter API: vitest-timings.ts) and
 * Playwright (its json reporter) time them.
 * Every phase runs even after one fails; the exit code says whether all passed. Reports go to
 * bench-results/tests/ (kept after the run).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Timings } from './vitest-timings.ts';

/** Not under test-results/, which Playwright empties when it starts. */
const OUT = 'bench-results/tests';
const VITEST_JSON = join(OUT, 'vitest-timings.json');
const PLAYWRIGHT_JSON = join(OUT, 'playwright.json');
const SLOWEST = 10;

const phases: [name: string, command: string, env?: Record<string, string>][] = [
  ['typecheck', 'npm run -s typecheck'],
  ['lint', 'npm run -s lint'],
  [
    'vitest',
    'npx vitest run --reporter=dot --reporter=./scripts/bench/vitest-timings.ts',
    { VITEST_TIMINGS: VITEST_JSON },
  ],
  ['playwright', 'npx playwright test --reporter=dot,json', { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }],
  ['size', 'npm run -s size -- build/e2e'],
  ['test:db-push', 'npm run -s test:db-push'],
  ['test:function-upload', 'npm run -s test:function-upload'],
];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () => loadavg()[0];

/** Runs `command` in bash, its output passed through; resolves with its exit code. */
function shell(command: string, env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

type Row = { name: string; ms: number };
const top = (rows: Row[]) => [...rows].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
const print = (title: string, rows: Row[]) =>
  console.log(
    `\n${title}\n${top(rows)
      .map((row) => `  ${seconds(row.ms).padStart(8)}  ${row.name}`)
      .join('\n')}`,
  );

const readJson = (file: string) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

function vitestReport() {
  const files = readJson(VITEST_JSON) as Timings | undefined;
  if (!files) return console.log(`\nNo Vitest report at ${VITEST_JSON}.`);
  print(
    'Vitest, slowest files (environment, imports, hooks and tests):',
    files.map(({ file, ms }) => ({ name: file, ms })),
  );
  const tests = files.flatMap((file) =>
    file.tests.map((test) => ({ name: `${file.file} › ${test.name}`, ms: test.ms })),
  );
  print('Vitest, slowest tests:', tests);
}

type PlaywrightSuite = {
  file: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; tests: { projectName: string; results: { duration: number }[] }[] }[];
};

function playwrightReport() {
  const report = readJson(PLAYWRIGHT_JSON) as { suites: PlaywrightSuite[] } | undefined;
  if (!report) return console.log(`\nNo Playwright report at ${PLAYWRIGHT_JSON}.`);
  const specs = (suite: PlaywrightSuite): NonNullable<PlaywrightSuite['specs']> => [
    ...(suite.specs ?? []),
    ...(suite.suites ?? []).flatMap(specs),
  ];
  const tests = report.suites.flatMap(specs).flatMap((spec) =>
    spec.tests.map((test) => ({
      file: `${spec.file} [${test.projectName}]`,
      name: `${spec.file} [${test.projectName}] › ${spec.title}`,
      ms: test.results.reduce((sum, result) => sum + result.duration, 0),
    })),
  );
  const byFile = new Map<string, number>();
  for (const test of tests) byFile.set(test.file, (byFile.get(test.file) ?? 0) + test.ms);
  print(
    'Playwright, slowest files (sum of their tests):',
    [...byFile].map(([name, ms]) => ({ name, ms })),
  );
  print('Playwright, slowest tests:', tests);
}

mkdirSync(OUT, { recursive: true });
const results: { name: string; ms: number; code: number; before: number; peak: number }[] = [];
const started = Date.now();
for (const [name, command, env] of phases) {
  console.log(`\n=== ${name}: ${command}`);
  const before = load();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, load())), 5_000);
  const start = Date.now();
  const code = await shell(command, env);
  clearInterval(sampler);
  results.push({ name, ms: Date.now() - start, code, before, peak: Math.max(peak, load()) });
}

vitestReport();
playwrightReport();
console.log('\nPhase                    wall   load at start / peak (1 min)  result');
for (const { name, ms, code, before, peak } of results) {
  const loads = `${before.toFixed(1)} / ${peak.toFixed(1)}`;
  console.log(
    `${name.padEnd(22)} ${seconds(ms).padStart(8)}   ${loads.padEnd(28)} ${code ? `FAILED (${code})` : 'ok'}`,
  );
}
console.log(`${'total'.padEnd(22)} ${seconds(Date.now() - started).padStart(8)}`);
if (results.some((result) => result.code)) process.exitCode = 1;

/**
 * npm run bench:tests: the test part of .ci/run phase by phase (`npm test`'s, test:db-push), each
 * one's wall time and the load average around it, whatever failed; the slowest files and tests from
 * Vitest (vitest-timings.ts) and Playwright (its json reporter).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSlowest, seconds, type Timings } from './slowest.ts';

const PLAYWRIGHT_JSON = join(tmpdir(), `bench-tests-playwright-${process.pid}.json`);
const phases: [name: string, command: string][] = [
  ['typecheck', 'npm run -s typecheck'],
  ['lint', 'npm run -s lint'],
  ['vitest', 'npx vitest run --reporter=dot --reporter=./scripts/bench/vitest-timings.ts'],
  ['playwright', `PLAYWRIGHT_JSON_OUTPUT_NAME=${PLAYWRIGHT_JSON} npx playwright test --reporter=dot,json`],
  ['size', 'npm run -s size -- build/e2e'],
  ['test:db-push', 'npm run -s test:db-push'],
];

type Suite = { specs?: { title: string; file: string; tests: Test[] }[]; suites?: Suite[] };
type Test = { projectName: string; results: { duration: number }[] };

/** Playwright's json report as Timings: a file's time is the sum of its tests' (each project apart). */
function playwrightTimings(report: { suites: Suite[] }): Timings {
  const specs = (suite: Suite): NonNullable<Suite['specs']> => [
    ...(suite.specs ?? []),
    ...(suite.suites ?? []).flatMap(specs),
  ];
  const byFile = new Map<string, Timings[number]>();
  for (const spec of report.suites.flatMap(specs)) {
    for (const test of spec.tests) {
      const file = `${spec.file} [${test.projectName}]`;
      const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
      const entry = byFile.get(file) ?? byFile.set(file, { file, ms: 0, tests: [] }).get(file)!;
      entry.ms += ms;
      entry.tests.push({ name: spec.title, ms });
    }
  }
  return [...byFile.values()];
}

const results: string[] = [];
let failed = false;
const started = Date.now();
for (const [name, command] of phases) {
  console.log(`\n=== ${name}: ${command}`);
  const before = loadavg()[0];
  const start = Date.now();
  const { status } = spawnSync('bash', ['-c', command], { stdio: 'inherit' });
  failed ||= status !== 0;
  const load = `${before.toFixed(1)} / ${loadavg()[0].toFixed(1)}`;
  const result = status ? `FAILED (${status})` : 'ok';
  results.push(`${name.padEnd(22)} ${seconds(Date.now() - start).padStart(8)}   ${load.padEnd(14)} ${result}`);
}
if (existsSync(PLAYWRIGHT_JSON)) {
  printSlowest('Playwright', playwrightTimings(JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8'))));
}
rmSync(PLAYWRIGHT_JSON, { force: true });
console.log(`\nPhase                    wall   load before / after  result\n${results.join('\n')}`);
console.log(`${'total'.padEnd(22)} ${seconds(Date.now() - started).padStart(8)}`);
if (failed) process.exitCode = 1;

/** The slowest files and tests of a test run, printed (npm run bench:tests). */
export type Timings = { file: string; ms: number; tests: { name: string; ms: number }[] }[];

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function printSlowest(tool: string, files: Timings, count = 10) {
  const tests = files.flatMap(({ file, tests }) => tests.map((test) => ({ ...test, file: `${file} › ${test.name}` })));
  for (const [what, rows] of [
    ['files', files],
    ['tests', tests],
  ] as const) {
    const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, count);
    const lines = slowest.map((row) => `  ${seconds(row.ms).padStart(8)}  ${row.file}`);
    console.log(`\n${tool}, slowest ${what}:\n${lines.join('\n')}`);
  }
}

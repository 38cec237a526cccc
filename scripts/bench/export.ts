/**
 * npm run bench:export — `waitlist export` of 1,000,000 sealed signups over 720 hourly keys
 * (BENCH_ROWS to change the count),
 * beside psql's \copy of the same rows (the floor: the sealed bytes as they are stored, nothing
 * opened), in the same run: wall time with start-up, and peak memory. Median of 3 (BENCH_RUNS).
 * `-- --plaintext`: the same signups on a list not sealed yet (before `keys init`).
 * `-- --before <commit>`: that commit's export too, run alternately with this tree's.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { commandAt } from './command-at';
import { listOf, MAIN, measure, median, STEPS } from './list-setup';
import { utcTimestamp } from '../../cli/list/utc.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const sealed = !process.argv.includes('--plaintext');
const beforeAt = process.argv.indexOf('--before');
const before = beforeAt >= 0 ? process.argv[beforeAt + 1] : undefined;
const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
const csv = join(tmpdir(), `waitlist-bench-${process.pid}.csv`);
const what = sealed ? `sealed signups over ${STEPS} hourly keys` : 'signups, not sealed';

const earlier = before ? commandAt(before) : undefined;
const started = Date.now();
const { cluster, info, url, keyFile } = await listOf(ROWS, { sealed });
console.error(`${ROWS} ${what} loaded in ${Math.round((Date.now() - started) / 1000)} s`);
try {
  const copy = `\\copy (select id, step, key_id, sealed, email, ${utcTimestamp('created_at')} as signed_up_at from private.mailable_signups order by created_at, id) to '${csv}' csv header`;
  type Run = { label: string; command: string[]; results: { seconds: number; peakMB: number }[] };
  const runs: Run[] = [
    { label: 'psql \\copy', command: [join(info.binDir, 'psql'), '-X', '-q', '-d', url, '-c', copy], results: [] },
    ...(earlier ? [{ label: `export at ${before}`, command: exportTo(earlier.main), results: [] }] : []),
    { label: 'waitlist export', command: exportTo(MAIN), results: [] },
  ];
  const env = { DATABASE_URL: url, ...(keyFile ? { WAITLIST_OWNER_KEY_FILE: keyFile } : {}) };
  for (let i = 0; i < RUNS; i += 1) {
    for (const run of runs) run.results.push(await measure(run.command[0], run.command.slice(1), env));
    console.error(
      `run ${i + 1} (load ${loadAverage()}): ${runs.map((run) => `${run.label} ${run.results[i].seconds} s`).join(', ')}`,
    );
  }
  console.log(
    `export of ${ROWS.toLocaleString('en')} ${what}, median of ${RUNS} (start-up included), runs alternating:`,
  );
  const floor = median(runs[0].results.map((r) => r.seconds));
  for (const run of runs) {
    const seconds = median(run.results.map((r) => r.seconds));
    const ratio = run === runs[0] ? '' : `, ${(seconds / floor).toFixed(2)}× \\copy`;
    console.log(
      `  ${`${run.label}:`.padEnd(24)} ${seconds.toFixed(2)} s, peak ${median(run.results.map((r) => r.peakMB))} MB${ratio}`,
    );
  }
  console.log(`  goal: ${sealed ? '≤ 10× \\copy, < 200 MB' : '≤ 3× \\copy'}`);
} finally {
  rmSync(csv, { force: true });
  earlier?.remove();
  await cluster.stop();
}

/** `waitlist export` of that cli/main.js into the CSV file, through a shell as the owner's redirect would. */
function exportTo(main: string): string[] {
  return ['sh', '-c', `"${process.execPath}" "${main}" export > "${csv}"`];
}

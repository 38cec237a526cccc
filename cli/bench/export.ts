/**
 * npx tsx cli/bench/export.ts — `waitlist export` of 1,000,000 signups beside psql's \copy of the
 * same rows (the floor), in the same run: wall time with start-up, and peak memory. Median of 3.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { listOf, MAIN, measure, median } from './setup';

const ROWS = 1_000_000;
const RUNS = 3;
const csv = join(tmpdir(), `waitlist-bench-${process.pid}.csv`);
const { cluster, info, url } = await listOf(ROWS);
try {
  const copy = `\\copy (select email, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_at from public.waiting_list order by created_at, id) to '${csv}' csv header`;
  const psql = [];
  const tool = [];
  for (let i = 0; i < RUNS; i += 1) {
    psql.push(await measure(join(info.binDir, 'psql'), ['-X', '-q', '-d', url, '-c', copy]));
    tool.push(await measure('sh', ['-c', `"${process.execPath}" "${MAIN}" export > "${csv}"`], { DATABASE_URL: url }));
    console.error(`run ${i + 1}: psql ${psql[i].seconds} s, waitlist export ${tool[i].seconds} s`);
  }
  const floor = median(psql.map((r) => r.seconds));
  const ours = median(tool.map((r) => r.seconds));
  console.log(`export of ${ROWS.toLocaleString('en')} rows, median of ${RUNS} (start-up included):`);
  console.log(`  psql \\copy:      ${floor.toFixed(2)} s, peak ${median(psql.map((r) => r.peakMB))} MB`);
  console.log(`  waitlist export: ${ours.toFixed(2)} s, peak ${median(tool.map((r) => r.peakMB))} MB`);
  console.log(`  ratio: ${(ours / floor).toFixed(2)}× (goal ≤ 3×, < 150 MB)`);
} finally {
  rmSync(csv, { force: true });
  await cluster.stop();
}

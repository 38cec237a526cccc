/**
 * npm run bench:export — `waitlist export` of 1,000,000 sealed signups over 720 hourly keys
 * (BENCH_ROWS to change the count),
 * beside psql's \copy of the same rows (the floor: the sealed bytes as they are stored, nothing
 * opened), in the same run: wall time with start-up, and peak memory. Median of 3.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { listOf, MAIN, measure, median, STEPS } from './list-setup';
import { utcTimestamp } from '../../cli/list/utc.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 3;
const csv = join(tmpdir(), `waitlist-bench-${process.pid}.csv`);
const started = Date.now();
const { cluster, info, url, keyFile } = await listOf(ROWS);
console.error(
  `${ROWS} sealed signups over ${STEPS} hourly keys loaded in ${Math.round((Date.now() - started) / 1000)} s`,
);
try {
  const copy = `\\copy (select id, step, key_id, sealed, email, ${utcTimestamp('created_at')} as signed_up_at from private.mailable_signups order by created_at, id) to '${csv}' csv header`;
  const psql = [];
  const tool = [];
  for (let i = 0; i < RUNS; i += 1) {
    psql.push(await measure(join(info.binDir, 'psql'), ['-X', '-q', '-d', url, '-c', copy]));
    tool.push(
      await measure('sh', ['-c', `"${process.execPath}" "${MAIN}" export > "${csv}"`], {
        DATABASE_URL: url,
        WAITLIST_OWNER_KEY_FILE: keyFile,
      }),
    );
    console.error(`run ${i + 1}: psql ${psql[i].seconds} s, waitlist export ${tool[i].seconds} s`);
  }
  const floor = median(psql.map((r) => r.seconds));
  const ours = median(tool.map((r) => r.seconds));
  console.log(
    `export of ${ROWS.toLocaleString('en')} sealed rows over ${STEPS} hourly keys, median of ${RUNS} (start-up included):`,
  );
  console.log(`  psql \\copy:      ${floor.toFixed(2)} s, peak ${median(psql.map((r) => r.peakMB))} MB`);
  console.log(`  waitlist export: ${ours.toFixed(2)} s, peak ${median(tool.map((r) => r.peakMB))} MB`);
  console.log(`  ratio: ${(ours / floor).toFixed(2)}× (goal ≤ 10×, < 200 MB)`);
} finally {
  rmSync(csv, { force: true });
  await cluster.stop();
}

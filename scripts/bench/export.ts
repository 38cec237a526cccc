/**
 * npm run bench:export — the export of 1,000,000 sealed signups over 720 hour keys (BENCH_ROWS to
 * change the count), measured two ways beside psql's \copy of the same rows as stored (the floor:
 * nothing opened): as the owner runs it, `npm run -s waitlist -- export > list.csv` (npm's start-up
 * included), and directly, the command package.json's script runs without npm. Wall time and
 * the peak resident memory of the whole process tree (npm, its shell and node: each process's
 * VmHWM, summed), best of 3 (BENCH_RUNS) after one run to warm the caches, the ways alternating.
 * `-- --plaintext`: the same signups on a list not sealed yet (before `keys init`).
 * `-- --before <commit>`: that commit's export too, run directly.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { commandAt } from './command-at';
import { listOf, MAIN, STEPS } from './list-setup';
import { utcTimestamp } from '../../cli/list/utc.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const sealed = !process.argv.includes('--plaintext');
const beforeAt = process.argv.indexOf('--before');
const before = beforeAt >= 0 ? process.argv[beforeAt + 1] : undefined;
const ROOT = join(MAIN, '..', '..');
const csv = join(tmpdir(), `waitlist-bench-${process.pid}.csv`);
const what = sealed ? `sealed signups over ${STEPS} hour keys` : 'signups, not sealed';
/** What `npm run waitlist` runs, e.g. `node --max-semi-space-size=1 cli/main.js`. */
const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.waitlist;
const nodeFlags = script.split(' ').filter((word) => word.startsWith('--'));

type Result = { seconds: number; peakMB: number };
type Way = { label: string; command: string[]; results: Result[] };

/** The processes under `pid` (the kernel's list of each one's children), `pid` first. */
function tree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // gone already
  }
  return [pid, ...children.flatMap(tree)];
}

/** Wall time, and the sum of each process's peak resident memory (VmHWM), polled every 5 ms until it ends. */
async function measure([command, ...args]: string[], env: Record<string, string>): Promise<Result> {
  const out = openSync(csv, 'w');
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', out, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const peaks = new Map<number, number>();
  const poll = setInterval(() => {
    for (const pid of tree(child.pid!)) {
      try {
        const kB = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kB));
      } catch {
        // it ended between the list and the read
      }
    }
  }, 5);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(poll);
  closeSync(out);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`);
  return { seconds, peakMB: Math.round([...peaks.values()].reduce((a, b) => a + b, 0) / 1024) };
}

const earlier = before ? commandAt(before) : undefined;
const started = Date.now();
const { cluster, info, url, keyFile } = await listOf(ROWS, { sealed });
console.error(`${ROWS} ${what} loaded in ${Math.round((Date.now() - started) / 1000)} s`);
try {
  const copy =
    `\\copy (select id, hour_key_id, seal, email, ${utcTimestamp('created_at')} as signed_up_at ` +
    `from private.mailable_signups order by created_at, id) to '${csv}' csv header`;
  const ways: Way[] = [
    { label: 'psql \\copy', command: [join(info.binDir, 'psql'), '-X', '-q', '-d', url, '-c', copy], results: [] },
    { label: 'npm run -s waitlist -- export', command: ['npm', 'run', '-s', 'waitlist', '--', 'export'], results: [] },
    { label: `node ${[...nodeFlags, 'cli/main.js'].join(' ')} export`, command: node(MAIN), results: [] },
    ...(earlier ? [{ label: `node … export at ${before}`, command: node(earlier.main), results: [] }] : []),
  ];
  const env = { DATABASE_URL: url, ...(keyFile ? { WAITLIST_OWNER_KEY_FILE: keyFile } : {}) };
  for (const way of ways) await measure(way.command, env); // warms the compile cache and the server's pages
  for (let i = 0; i < RUNS; i += 1) {
    for (const way of ways) way.results.push(await measure(way.command, env));
    console.error(
      `run ${i + 1} (load ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}): ` +
        ways.map((way) => `${way.label} ${way.results[i].seconds.toFixed(2)} s ${way.results[i].peakMB} MB`).join(', '),
    );
  }
  const commit = spawnText('git', ['rev-parse', '--short', 'HEAD']);
  const postgres = spawnText(join(info.binDir, 'postgres'), ['--version']);
  console.log(
    `export of ${ROWS.toLocaleString('en')} ${what}, best of ${RUNS} (start-up included), ` +
      `${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${cpus().length} × ${cpus()[0].model}, ` +
      `Node ${process.versions.node}, ${postgres}:`,
  );
  const floor = Math.min(...ways[0].results.map((r) => r.seconds));
  for (const way of ways) {
    const seconds = Math.min(...way.results.map((r) => r.seconds));
    const peak = Math.max(...way.results.map((r) => r.peakMB));
    const ratio = way === ways[0] ? '' : `, ${(seconds / floor).toFixed(2)} × \\copy`;
    console.log(
      `  ${`${way.label}:`.padEnd(50)} ${seconds.toFixed(2)} s, peak ${peak} MB (highest of the runs)${ratio}`,
    );
  }
  console.log(`  goal: ${sealed ? '≤ 10 × \\copy, < 200 MB' : '≤ 3 × \\copy, < 150 MB'}, as the owner runs it (npm)`);
} finally {
  rmSync(csv, { force: true });
  earlier?.remove();
  await cluster.stop();
}

/** `node`, with the flags of package.json's script, running that cli/main.js's export. */
function node(main: string): string[] {
  return [process.execPath, ...nodeFlags, main, 'export'];
}

function spawnText(command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

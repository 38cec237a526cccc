/**
 * Lighthouse benchmark of the production build: builds it into build/bench (unless --no-build;
 * dist/ is never touched) against the project's mock backend (mocks/handlers.ts served on
 * loopback, --mock-port), writes the floor page next to it (/floor/: the headline and the
 * inlined styles only, scripts/bench/floor.ts), serves both with Cloudflare Pages' runtime
 * (wrangler pages dev) on a loopback port, and runs:
 * - Lighthouse's navigation --runs times (default 3) on the page and as many on the floor
 *   (mobile preset, simulated throttling), printing the medians beside the targets and the
 *   ratio of the two LCPs;
 * - one Lighthouse user flow of a signup (scripts/bench/user-flow.ts: devtools throttling).
 * Writes build/bench/lighthouse-summary.json and the raw reports build/bench/run-N.report.json,
 * floor-run-N.report.json, flow.report.json and flow.report.html (git-ignored).
 * Asserts nothing on the figures; exits 1 only if a step fails.
 * Usage: npx tsx scripts/bench.ts [--no-build] [--dir build/bench/site] [--runs 3] [--port 4275] [--mock-port 4276]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../e2e/browser.ts';
import { writeFloor } from './bench/floor.ts';
import { runLighthouse, type Figures, type Run } from './bench/lighthouse-run.ts';
import { startMockBackend } from './bench/mock-backend.ts';
import { floorBlock, lcpDiagnosis } from './bench/lcp-diagnosis.ts';
import { flowBlock, medianRun, medians, table } from './bench/report.ts';
import { runUserFlow, type FlowRun } from './bench/user-flow.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    dir: { type: 'string', default: 'build/bench/site' },
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '4275' },
    'mock-port': { type: 'string', default: '4276' },
  },
});
const runs = Number(values.runs);
const dir = resolve(root, values.dir);
const results = resolve(root, 'build/bench');
/** The browser the tests use (CHROMIUM_PATH, Debian's chromium, or Playwright's own). */
const chromePath = chromiumPath() ?? chromium.executablePath();
const mockPort = Number(values['mock-port']);
const benchEnv = {
  // The mock backend (scripts/bench/mock-backend.ts); http is allowed on loopback, and a build
  // naming it is for local use: its CSP does not upgrade requests to https (the flow checks it).
  VITE_SUPABASE_URL: `http://127.0.0.1:${mockPort}`,
  VITE_SUPABASE_PUBLISHABLE_KEY: 'bench-publishable-key',
  VITE_SITE_URL: 'https://bench.example.org',
};

function build() {
  console.log(`Building with VITE_SUPABASE_URL=${benchEnv.VITE_SUPABASE_URL}`);
  const result = spawnSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...benchEnv },
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** The commit measured, "+dirty" with uncommitted changes (the build includes them). */
function source(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const commit = git('rev-parse', '--short', 'HEAD');
  if (commit.status !== 0) return 'unknown';
  return `${commit.stdout.trim()}${git('status', '--porcelain', '--untracked-files=no').stdout.trim() ? '+dirty' : ''}`;
}

/** Serves the build with wrangler pages dev (as production on Cloudflare Pages) and resolves once it answers. */
function serve(): Promise<{ url: string; stop: () => void }> {
  const url = `http://127.0.0.1:${values.port}/`;
  const inspectorPort = String(Number(values.port) + 5000); // not wrangler's default 9229, which a test run may hold
  const child = spawn(
    'npx',
    ['wrangler', 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', values.port, '--inspector-port', inspectorPort],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      detached: true,
    },
  );
  let stopped = false;
  const stop = () => {
    if (stopped || !child.pid) return;
    stopped = true;
    process.kill(-child.pid, 'SIGTERM'); // wrangler and the workerd it started
  };
  process.once('exit', stop);
  return new Promise((resolved, failed) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready on')) resolved({ url, stop });
    });
    child.once('error', failed);
    child.once('exit', (code) => failed(new Error(`wrangler pages dev exited (${code}) before serving:\n${output}`)));
  });
}

/** One Lighthouse navigation; Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP): one retry. */
function navigation(url: string): Promise<Run> {
  return runLighthouse(url, chromePath).catch((error: unknown) => {
    process.stdout.write(`failed (${error instanceof Error ? error.message : String(error)}), retrying … `);
    return runLighthouse(url, chromePath);
  });
}

async function main() {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
  if (!Number.isInteger(mockPort) || mockPort < 1)
    throw new Error(`--mock-port must be a port, not ${values['mock-port']}`);
  const mock = await startMockBackend(mockPort);
  console.log(`Mock backend (mocks/handlers.ts) on ${mock.url}`);
  try {
    if (!values['no-build']) build();
    const floorPath = writeFloor(dir);
    const server = await serve();
    const floorUrl = new URL(floorPath, server.url).href;
    const done: Run[] = [];
    const floor: Run[] = [];
    let flow: FlowRun;
    try {
      mkdirSync(results, { recursive: true });
      // Page and floor alternate, so that a busy moment of the machine weighs on both alike.
      for (let index = 1; index <= runs; index++) {
        process.stdout.write(`Lighthouse run ${index}/${runs} on ${server.url} … `);
        const run = await navigation(server.url);
        writeFileSync(join(results, `run-${index}.report.json`), JSON.stringify(run.lhr));
        console.log(`performance ${run.figures.performance}, LCP ${Math.round(run.figures.lcp)} ms`);
        done.push(run);
        process.stdout.write(`Lighthouse run ${index}/${runs} on the floor ${floorUrl} … `);
        const floorRun = await navigation(floorUrl);
        writeFileSync(join(results, `floor-run-${index}.report.json`), JSON.stringify(floorRun.lhr));
        console.log(`LCP ${Math.round(floorRun.figures.lcp)} ms`);
        floor.push(floorRun);
      }
      process.stdout.write(`Lighthouse user flow (signup) on ${server.url} … `);
      flow = await runUserFlow(server.url, chromePath);
      writeFileSync(join(results, 'flow.report.json'), JSON.stringify(flow.result));
      writeFileSync(join(results, 'flow.report.html'), flow.html);
      console.log(`INP ${flow.figures.inp ?? '–'} ms, toast ${flow.figures.enterToToast ?? '–'} ms after Enter`);
    } finally {
      server.stop();
    }
    const posts = mock.seen.filter((request) => request.startsWith('POST /rest/v1/waiting_list'));
    if (posts.length !== 1)
      throw new Error(
        `the mock backend got ${posts.length} POSTs to /rest/v1/waiting_list, not 1: ${mock.seen.join(', ')}`,
      );
    if (new URL(flow.figures.postUrl).origin !== mock.url)
      throw new Error(`the page sent the signup to ${flow.figures.postUrl}, not to the mock at ${mock.url}`);
    report(done, floor, flow, mock.seen);
  } finally {
    await mock.stop();
  }
}

function report(done: Run[], floor: Run[], flow: FlowRun, seen: string[]) {
  const median: Figures = medians(done.map((run) => run.figures));
  const floorMedian: Figures = medians(floor.map((run) => run.figures));
  const lcpRatio = Number((median.lcp / floorMedian.lcp).toFixed(2));
  const { lighthouse, chromium } = done[0];
  console.log(`\nLighthouse ${lighthouse}, Chromium ${chromium}, mobile preset, simulated throttling, ${runs} runs`);
  console.log(
    table(
      done.map((run) => run.figures),
      median,
    ),
  );
  const costs = [
    ...new Map(done.flatMap((run) => run.costs).map((cost) => [`${cost.category} ${cost.id}`, cost])).values(),
  ];
  if (costs.length) {
    console.log('\nAudits that cost points (in any run):');
    for (const cost of costs)
      console.log(`  ${cost.category}: ${cost.id} — ${cost.title}${cost.detail ? ` (${cost.detail})` : ''}`);
  }
  const oursMedian = medianRun(done);
  const floorMedianRun = medianRun(floor);
  const ours = { diagnosis: lcpDiagnosis(oursMedian.lhr), lantern: oursMedian.lantern };
  const floorLcp = { diagnosis: lcpDiagnosis(floorMedianRun.lhr), lantern: floorMedianRun.lantern };
  console.log(`\n${floorBlock(done, floor, median, floorMedian, lcpRatio, ours, floorLcp)}`);
  console.log(`\n${flowBlock(flow, benchEnv.VITE_SUPABASE_URL, seen)}`);
  const summary = {
    date: new Date().toISOString(),
    source: source(),
    lighthouse,
    chromium,
    settings: { preset: 'mobile', throttling: 'simulated', supabase: benchEnv.VITE_SUPABASE_URL, dir: values.dir },
    medians: median,
    runs: done.map((run) => run.figures),
    costs,
    floor: {
      page: '/floor/: the built page structure around the <h1>, its inlined <style> elements, no script',
      medians: floorMedian,
      runs: floor.map((run) => run.figures),
      lcpRatio,
      lcp: { ours: ours.diagnosis, floor: floorLcp.diagnosis },
      lantern: { ours: done.map((run) => run.lantern ?? null), floor: floor.map((run) => run.lantern ?? null) },
    },
    flow: {
      settings: {
        preset: 'mobile',
        throttling: flow.throttling,
        supabase: `${benchEnv.VITE_SUPABASE_URL} (mocks/handlers.ts)`,
        keyDelayMs: flow.keyDelayMs,
      },
      figures: flow.figures,
      mockRequests: seen,
    },
  };
  writeFileSync(join(results, 'lighthouse-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log('\nWrote build/bench/lighthouse-summary.json');
}

process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));
try {
  await main();
} catch (error) {
  console.error(`\nbench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

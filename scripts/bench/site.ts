/**
 * Lighthouse on the production build: builds it into build/bench/site (unless --no-build)
 * against the project's mock backend (mocks/handlers.ts on loopback), writes the floor page
 * next to it (/floor/: the headline and the inlined styles only, scripts/bench/floor.ts),
 * serves both with Cloudflare Pages' runtime (wrangler pages dev) and runs:
 * - Lighthouse navigations, --runs times each (default 3), page and floor alternating: medians
 *   beside the targets, and the ratio of the two LCPs;
 * - one user flow of a signup (scripts/bench/user-flow.ts): INP, and the form's code.
 * Writes Lighthouse's HTML report of every run and build/bench/lighthouse-summary.json.
 * Asserts nothing on the figures; exits 1 only if a step fails.
 * Usage: npx tsx scripts/bench/site.ts [--no-build] [--runs 3] [--port 4275] [--mock-port 4276]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../../e2e/browser.ts';
import { writeFloor } from './floor.ts';
import { runLighthouse, type Run } from './lighthouse-run.ts';
import { startMockBackend } from './mock-backend.ts';
import { medians, table } from './report.ts';
import { KEY_DELAY_MS, runUserFlow, type FlowFigures, type FlowRun } from './user-flow.ts';
import { quietWrangler } from '../wrangler-env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '4275' },
    'mock-port': { type: 'string', default: '4276' },
  },
});
const runs = Number(values.runs);
const results = resolve(root, 'build/bench');
const site = join(results, 'site');
const chromePath = chromiumPath() ?? chromium.executablePath();
const env = {
  // http is allowed on loopback, and a build naming it is for local use: its CSP does not
  // upgrade requests to https.
  VITE_SUPABASE_URL: `http://127.0.0.1:${values['mock-port']}`,
  VITE_SUPABASE_PUBLISHABLE_KEY: 'bench-publishable-key',
  VITE_SITE_URL: 'https://bench.example.org',
};
const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();

function build() {
  const result = spawnSync('npx', ['vite', 'build', '--outDir', site, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/** wrangler pages dev on the build; resolves once it answers, with the function that stops it. */
function serve(): Promise<() => void> {
  const args = ['wrangler', 'pages', 'dev', site, '--ip', '127.0.0.1', '--port', values.port];
  const child = spawn('npx', [...args, '--inspector-port', String(Number(values.port) + 5000)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...quietWrangler },
    detached: true,
  });
  let stopped = false;
  const stop = () => {
    if (stopped || !child.pid) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGTERM'); // the whole group: npx, wrangler and workerd
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // already gone
    }
  };
  process.once('exit', stop);
  return new Promise((resolved, failed) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk) && output.includes('Ready on') && resolved(stop));
    child.once('exit', (code) => failed(new Error(`wrangler pages dev exited (${code}):\n${output}`)));
  });
}

/** Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP): one retry. */
const navigation = (url: string) => runLighthouse(url, chromePath).catch(() => runLighthouse(url, chromePath));

async function main() {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
  const mock = await startMockBackend(Number(values['mock-port']));
  try {
    if (!values['no-build']) build();
    const url = `http://127.0.0.1:${values.port}/`;
    const floorUrl = new URL(writeFloor(site), url).href;
    const stop = await serve();
    const page: Run[] = [];
    const floor: Run[] = [];
    let flow: FlowRun;
    try {
      mkdirSync(results, { recursive: true });
      for (let index = 1; index <= runs; index++) {
        for (const [name, target, list] of [
          ['run', url, page],
          ['floor-run', floorUrl, floor],
        ] as const) {
          const run = await navigation(target);
          writeFileSync(join(results, `${name}-${index}.report.html`), run.html);
          console.log(`${name} ${index}/${runs}: performance ${run.figures.performance}, LCP ${run.figures.lcp} ms`);
          list.push(run);
        }
      }
      flow = await runUserFlow(url, chromePath);
      writeFileSync(join(results, 'flow.report.html'), flow.html);
    } finally {
      stop();
    }
    const posts = mock.seen.filter((request) => request.startsWith('POST /rest/v1/waiting_list'));
    if (posts.length !== 1 || !flow.figures.postUrl.startsWith(mock.url)) {
      throw new Error(`the mock at ${mock.url} got ${posts.length} signups, not 1 (sent to ${flow.figures.postUrl})`);
    }
    report(page, floor, flow.figures);
  } finally {
    await mock.stop();
  }
}

function report(page: Run[], floor: Run[], flow: FlowFigures) {
  const median = medians(page.map((run) => run.figures));
  const floorMedian = medians(floor.map((run) => run.figures));
  const lcpRatio = Number((median.lcp / floorMedian.lcp).toFixed(2));
  const dirty = git('status', '--porcelain', '--untracked-files=no') ? '+dirty' : '';
  const summary = { date: new Date().toISOString(), source: git('rev-parse', '--short', 'HEAD') + dirty };
  const { lighthouse, chromium: version } = page[0];
  console.log(`\nLighthouse ${lighthouse}, Chromium ${version}, mobile preset, simulated throttling, ${runs} runs`);
  console.log(
    table(
      page.map((run) => run.figures),
      median,
    ),
  );
  console.log(`\nLCP ${median.lcp} ms, the floor's ${floorMedian.lcp} ms: ratio ${lcpRatio} (target ≤ 1.10)`);
  console.log(`\nUser flow (devtools throttling, one key per ${KEY_DELAY_MS} ms, Enter, until the toast):`);
  console.log(`  INP ${flow.inp ?? '–'} ms, TBT ${flow.tbt ?? '–'} ms`);
  console.log(
    `  Form code: ${flow.codeScripts} scripts, ${(flow.codeBytes / 1024).toFixed(1)} KiB, ` +
      `${flow.focusToCode ?? '–'} ms after the focus`,
  );
  console.log(`  Enter → toast ${flow.enterToToast} ms`);
  console.log(`\nReports: build/bench/*.report.html`);
  const json = { ...summary, lighthouse, chromium: version, medians: median, floor: floorMedian, lcpRatio, flow };
  writeFileSync(join(results, 'lighthouse-summary.json'), `${JSON.stringify(json, null, 2)}\n`);
}

process.once('SIGINT', () => process.exit(130));
try {
  await main();
} catch (error) {
  console.error(`\nbench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

/**
 * Lighthouse benchmark of the production build: builds it into build/bench (unless --no-build;
 * dist/ is never touched), serves it with Cloudflare Pages' runtime (wrangler pages dev) on a
 * loopback port, runs Lighthouse --runs times (default 3) and prints the medians beside the
 * targets. Writes build/bench/lighthouse-summary.json and the raw reports
 * build/bench/run-N.report.json (git-ignored). Asserts nothing; exits 1 only if a step fails.
 * Usage: npx tsx scripts/bench.ts [--no-build] [--dir build/bench/site] [--runs 3] [--port 4275]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../e2e/browser.ts';
import { runLighthouse, type Figures, type Run } from './bench/lighthouse-run.ts';
import { medians, table } from './bench/report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    dir: { type: 'string', default: 'build/bench/site' },
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '4275' },
  },
});
const runs = Number(values.runs);
const dir = resolve(root, values.dir);
const results = resolve(root, 'build/bench');
/** The browser the tests use (CHROMIUM_PATH, Debian's chromium, or Playwright's own). */
const chromePath = chromiumPath() ?? chromium.executablePath();
const benchEnv = {
  VITE_SUPABASE_URL: 'https://bench-project.supabase.co',
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
  const child = spawn('npx', ['wrangler', 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', values.port], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    detached: true,
  });
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

async function main() {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
  if (!values['no-build']) build();
  const server = await serve();
  const done: Run[] = [];
  try {
    mkdirSync(results, { recursive: true });
    for (let index = 1; index <= runs; index++) {
      process.stdout.write(`Lighthouse run ${index}/${runs} on ${server.url} … `);
      const run = await runLighthouse(server.url, chromePath).catch((error: unknown) => {
        // Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP): one retry.
        console.log(`failed (${error instanceof Error ? error.message : String(error)}), retrying … `);
        return runLighthouse(server.url, chromePath);
      });
      writeFileSync(join(results, `run-${index}.report.json`), JSON.stringify(run.lhr));
      console.log(`performance ${run.figures.performance}, LCP ${Math.round(run.figures.lcp)} ms`);
      done.push(run);
    }
  } finally {
    server.stop();
  }

  const median: Figures = medians(done.map((run) => run.figures));
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
  const summary = {
    date: new Date().toISOString(),
    source: source(),
    lighthouse,
    chromium,
    settings: { preset: 'mobile', throttling: 'simulated', supabase: benchEnv.VITE_SUPABASE_URL, dir: values.dir },
    medians: median,
    runs: done.map((run) => run.figures),
    costs,
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

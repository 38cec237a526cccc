/**
 * `waitlist deploy` (`npm run deploy`): vite build (its variable checks), the upload with the pinned
 * wrangler (the project made on first use), the domain and origins, then `health`. `--preview <name>`:
 * built against .env.preview.local's project, which the preview guard keeps off the live one.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { Command } from 'commander';
import { childEnv } from './baseline.ts';
import { withDatabase } from './connect/database.ts';
import { tokenDestination } from './connect/secret-url.ts';
import { addOrigin } from './guard.ts';
import { originOf } from './origins.ts';
import { say, UsageError } from './terminal.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = fileURLToPath(new URL('main.js', import.meta.url));
/** What wrangler may see besides childEnv's basics: its credentials, and where its API is (the tests' stand-in). */
const WRANGLER_ENV = /^CLOUDFLARE_(API_TOKEN|ACCOUNT_ID|API_BASE_URL)$/;
/** What the build may see besides childEnv's basics: its own variables, none of the owner's secrets. */
const FOR_THE_BUILD = /^(VITE_\w+|PRODUCTION_\w+|CF_PAGES\w*)$/;

type Options = { project: string; preview?: string; outDir: string };

/** Runs a program in the repository, its output on stderr (or captured and returned); a failure names it. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv, capture = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: ROOT, env, stdio: ['ignore', capture ? 'pipe' : 2, 2] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    const step = [program.split('/').pop(), ...args.slice(0, 3)].join(' ');
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${step} failed (exit ${code}).`))));
  });
}

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const wranglerEnv = () => ({ ...childEnv(WRANGLER_ENV), WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true' });
const wrangler = (args: string[], capture = false) => run(bin('wrangler'), ['pages', ...args], wranglerEnv(), capture);

/** Where CLOUDFLARE_API_TOKEN goes, deploy's calls and wrangler's. */
const cloudflareApi = () => tokenDestination('CLOUDFLARE_API_BASE_URL', 'https://api.cloudflare.com/client/v4');

/** A call to Cloudflare's API for the Pages project (wrangler has no command for its domains). */
async function pagesApi<T>(project: string, path = '', body?: object): Promise<T> {
  const base = cloudflareApi().href.replace(/\/$/, '');
  const response = await fetch(
    `${base}/accounts/${process.env.CLOUDFLARE_ACCOUNT_ID}/pages/projects/${project}${path}`,
    {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${process.env.CLOUDFLARE_API_TOKEN}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    },
  );
  const answer = (await response.json()) as { success: boolean; errors?: { message: string }[]; result: T };
  if (!answer.success) throw new Error(`Cloudflare refused ${path || 'the project'}: ${answer.errors?.[0]?.message}`);
  return answer.result;
}

/** The build's environment: for a preview, the preview's project over the live one, marked as Cloudflare marks one. */
function buildEnv(production: string, preview?: string): NodeJS.ProcessEnv {
  const env = childEnv(FOR_THE_BUILD);
  if (!preview) return env;
  const own = existsSync('.env.preview.local') ? parseEnv(readFileSync('.env.preview.local', 'utf8')) : {};
  const live = process.env.PRODUCTION_SUPABASE_URL || process.env.VITE_SUPABASE_URL;
  const marks = { CF_PAGES: '1', CF_PAGES_BRANCH: preview, PRODUCTION_BRANCH: production };
  return { ...env, ...own, ...marks, PRODUCTION_SUPABASE_URL: live };
}

async function deploy({ project, preview, outDir }: Options): Promise<void> {
  const unset = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID'].filter((name) => !process.env[name]);
  if (unset.length) throw new UsageError(`Not set: ${unset.join(', ')} (docs/deploy.md, "What deploy needs").`);
  cloudflareApi();
  const production = process.env.PRODUCTION_BRANCH || 'main';
  if (preview === production)
    throw new UsageError(`--preview ${preview} is the production branch (PRODUCTION_BRANCH).`);

  await run(bin('vite'), ['build', '--outDir', outDir, '--emptyOutDir'], buildEnv(production, preview));
  const listed = JSON.parse(await wrangler(['project', 'list', '--json'], true)) as { 'Project Name': string }[];
  if (!listed.some((each) => each['Project Name'] === project)) {
    await wrangler(['project', 'create', project, '--production-branch', production]);
  }
  const branch = preview ?? production;
  await wrangler(['deploy', outDir, '--project-name', project, '--branch', branch, '--commit-dirty=true']);
  if (preview) {
    say(`Preview ${preview} deployed, built against its own Supabase project; no health check.`);
    return;
  }

  const site = originOf(process.env.VITE_SITE_URL ?? '');
  const { subdomain, domains } = await pagesApi<{ subdomain: string; domains: string[] }>(project);
  const host = new URL(site).host;
  if (!domains.includes(host) && !host.endsWith('.pages.dev')) {
    await pagesApi(project, '/domains', { name: host });
    say(`Attached ${host}; its DNS needs a CNAME to ${subdomain} (docs/deploy.md, "The address and your own domain").`);
  }
  if (host.endsWith('.pages.dev') && host !== subdomain)
    say(
      `VITE_SITE_URL names ${host}, but this project is ${subdomain}: run setup again with --site https://${subdomain}.`,
    );
  const origins = [...new Set([site, `https://${subdomain}`])];
  if (process.env.DATABASE_URL) {
    await withDatabase(async (db) => {
      for (const origin of origins) if (await addOrigin(db, origin)) say(`Allowed the origin ${origin}.`);
    });
  } else {
    say(`DATABASE_URL is not set: allow ${origins.join(' and ')} with \`npm run waitlist -- origins add <origin>\`.`);
  }
  const health = spawn(process.execPath, [...process.execArgv, MAIN, 'health'], { stdio: 'inherit' });
  process.exitCode = await new Promise<number>((resolve) => health.on('close', (code) => resolve(code ?? 1)));
}

export function deployCommand(): Command {
  return new Command('deploy')
    .description("Build, deploy to Cloudflare Pages, attach VITE_SITE_URL's domain, allow its origins, run health.")
    .option('--project <name>', 'the Cloudflare Pages project', 'coming-soon')
    .option('--preview <name>', "deploy a preview named <name>, built against .env.preview.local's Supabase project")
    .option('--out-dir <dir>', 'where the build goes', 'dist')
    .action((options: Options) => deploy(options));
}

/**
 * Cloudflare Pages for setup and deploy: the token's account, the project (found or made first, so the
 * site's real address is known before any build), its domains and deployments through the API, the
 * upload with the pinned wrangler (the build: cli/site/build.ts). The token comes from the environment or
 * is asked (terminal/secret.ts); wrangler gets it in its environment, never on a command line.
 */
import { bin, childEnv, run } from './tools.ts';
import { tokenDestination } from './secret-url.ts';
import { howToGive, secretFrom } from '../terminal/secret.ts';
import { choose } from '../terminal/choose.ts';
import { UsageError } from '../terminal/terminal.ts';

/** What wrangler may see besides childEnv's basics: its credentials, and where its API is (the tests' stand-in). */
const WRANGLER_ENV = /^CLOUDFLARE_(API_TOKEN|ACCOUNT_ID|API_BASE_URL)$/;
const NOT_FOUND = 8000007;

export type PagesProject = { name: string; subdomain: string; domains: string[] };
type Deployment = { environment: string; deployment_trigger?: { metadata?: { commit_message?: string } } };

type Refused = Error & { code?: number };
type Answer<T> = { success: boolean; errors?: { code: number; message: string }[]; result: T };

/** One call to Cloudflare's API with the token: its result, or an Error with Cloudflare's reason. */
async function cloudflare<T>(path: string, body?: object): Promise<T> {
  const api = tokenDestination('CLOUDFLARE_API_BASE_URL', 'https://api.cloudflare.com/client/v4');
  const base = api.href.replace(/\/$/, '');
  const response = await fetch(`${base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${process.env.CLOUDFLARE_API_TOKEN}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const answer = (await response.json()) as Answer<T>;
  const [error] = answer.errors ?? [];
  if (!answer.success) {
    const refused = `Cloudflare refused ${path.split('/').slice(3).join('/')}: ${error?.message}`;
    throw Object.assign(new Error(refused), { code: error?.code });
  }
  return answer.result;
}

/** The Cloudflare token and account: the token from the environment or asked; the account, the token's own. */
export async function cloudflareCredentials(mayAsk = true) {
  const question = 'A Cloudflare API token with Account → Cloudflare Pages → Edit (not shown as you type):';
  if (!(await secretFrom('CLOUDFLARE_API_TOKEN', question, mayAsk))) {
    throw new UsageError(`No Cloudflare API token: ${howToGive('CLOUDFLARE_API_TOKEN')}.`);
  }
  if (process.env.CLOUDFLARE_ACCOUNT_ID) return;
  const accounts = await cloudflare<{ id: string; name: string }[]>('/accounts');
  const account = await choose('Cloudflare account', accounts, (a) => `${a.name} (${a.id})`, 'CLOUDFLARE_ACCOUNT_ID');
  process.env.CLOUDFLARE_ACCOUNT_ID = account.id;
}

const projects = (path = '') => `/accounts/${process.env.CLOUDFLARE_ACCOUNT_ID}/pages/projects${path}`;

/** The Pages project, or undefined while Cloudflare has none of that name in the account. */
export const findProject = (name: string) =>
  cloudflare<PagesProject>(projects(`/${name}`)).catch((error: Refused) =>
    error.code === NOT_FOUND ? undefined : Promise.reject(error),
  );

/** Makes the project; Cloudflare gives it `<name>.pages.dev`, or another address when that name is taken. */
export const createProject = (name: string, production: string) =>
  cloudflare<PagesProject>(projects(), { name, production_branch: production });

export const attachDomain = (project: string, host: string) =>
  cloudflare(projects(`/${project}/domains`), { name: host });

export const deployments = (project: string) => cloudflare<Deployment[]>(projects(`/${project}/deployments`));

/** Uploads `outDir` with wrangler on `branch`; `message` marks the deployment (setup finds its own by it). */
export function upload(project: string, outDir: string, branch: string, message: string): Promise<void> {
  const env = { ...childEnv(WRANGLER_ENV), WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true' };
  const args = ['pages', 'deploy', outDir, '--project-name', project, '--branch', branch];
  return run(bin('wrangler'), [...args, '--commit-message', message, '--commit-dirty=true'], env);
}

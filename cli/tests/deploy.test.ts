/**
 * `npm run deploy` with the real, pinned wrangler against a stand-in of Cloudflare's API
 * (cloudflare-api.ts, reached through CLOUDFLARE_API_BASE_URL), a real `vite build`, and health
 * against the stand-in site and data API (health-stand-ins.ts). Tried against stand-ins only:
 * never against Cloudflare itself.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudflareApi, type CloudflareApi } from './cloudflare-api';
import { useHealthyProject, useStandIns } from './health-stand-ins';
import { startCli, type Result } from './run-cli';
import { sharedDatabase } from '../../supabase/tests/shared-server';

const stand = useStandIns(() => sharedDatabase());
useHealthyProject(stand);
const TOKEN = `cf-token-${crypto.randomUUID()}`;
const PREVIEW = 'https://preview-ref.supabase.co';
let api: CloudflareApi;
let folder: string;

beforeAll(async () => {
  api = await startCloudflareApi(TOKEN);
  folder = mkdtempSync(join(tmpdir(), 'waitlist-deploy-'));
});
afterAll(async () => {
  await api?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `npm run deploy -- …` as the owner runs it, from `cwd` (where .env.preview.local is read). */
async function deploy(args: string[] = [], { cwd = folder, ...more }: Record<string, string> = {}): Promise<Result> {
  const env = {
    ...stand.env,
    CLOUDFLARE_API_TOKEN: TOKEN,
    CLOUDFLARE_ACCOUNT_ID: 'acc',
    CLOUDFLARE_API_BASE_URL: api.url,
  };
  Object.assign(env, more);
  const run = await startCli(['deploy', '--out-dir', join(folder, 'out'), ...args], env, [], cwd).done;
  for (const secret of [env.CLOUDFLARE_API_TOKEN, new URL(stand.env.DATABASE_URL).password].filter(Boolean)) {
    expect(run.stdout + run.stderr, 'a secret in the output').not.toContain(secret);
  }
  return run;
}

/** Every file of the build, by its path as the manifest names it ("/index.html"); _headers apart. */
function built(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? built(dir, `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`],
  );
}

const creations = () => api.arrived.filter((call) => call.method === 'POST' && /\/pages\/projects$/.test(call.path));

describe('npm run deploy', () => {
  it('builds, creates the project on first use, uploads every file, attaches the domain, allows the origins and runs health', async () => {
    const run = await deploy();
    expect(run.stderr).toContain("Successfully created the 'coming-soon' project");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Healthy: a visitor can join the list right now/);
    expect(creations().map((call) => JSON.parse(call.body))).toEqual([
      expect.objectContaining({ name: 'coming-soon', production_branch: 'main' }),
    ]);
    // Every call carried the token from the environment: wrangler's own, and deploy's domain call.
    const cloudflare = api.arrived.filter((call) => call.path.startsWith('/accounts/'));
    expect(new Set(cloudflare.map((call) => call.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));

    const [deployment] = api.deployments;
    expect(deployment.branch).toBe('main');
    const files = built(join(folder, 'out')).filter((path) => path !== '/_headers');
    expect(Object.keys(deployment.manifest).sort()).toEqual(files.sort());
    expect(api.fileOf(deployment, '/index.html')).toBe(readFileSync(join(folder, 'out/index.html'), 'utf8'));
    expect(deployment.headers).toBe(readFileSync(join(folder, 'out/_headers'), 'utf8'));
    expect(deployment.headers).toContain(`connect-src 'self' ${stand.env.VITE_SUPABASE_URL}`);

    const site = new URL(stand.site.url).host;
    expect(api.projects.get('coming-soon')?.domains).toEqual(['coming-soon.pages.dev', site]);
    const { rows } = await stand.owner.query<{ origin: string }>('select origin from private.allowed_origins');
    expect(rows.map((row) => row.origin).sort()).toEqual(['https://coming-soon.pages.dev', stand.site.url].sort());
  }, 240_000);

  it('deploys again into the same project without creating it, and exits with the code of health', async () => {
    stand.site.changed = { 'X-Frame-Options': 'ALLOWALL' }; // the live site now serves a weakened header
    const run = await deploy([], { DATABASE_URL: '' });
    expect(creations()).toHaveLength(1);
    expect(api.arrived.filter((call) => call.method === 'POST' && call.path.endsWith('/domains'))).toHaveLength(1);
    expect(run.stderr).toContain(
      `DATABASE_URL is not set: allow ${stand.site.url} and https://coming-soon.pages.dev with \`npm run waitlist -- origins add <origin>\`.`,
    );
    expect(api.deployments.map((each) => each.branch)).toEqual(['main', 'main']);
    expect(run.stdout).toContain(`PROBLEM site: ${stand.site.url} answers 200 X-Frame-Options "ALLOWALL"`);
    expect(run.code).toBe(1);
  }, 240_000);

  it("builds a preview against .env.preview.local's project, deploys it on its branch, and never the live list's", async () => {
    const previewFolder = mkdtempSync(join(tmpdir(), 'waitlist-deploy-preview-'));
    writeFileSync(
      join(previewFolder, '.env.preview.local'),
      `VITE_SUPABASE_URL=${PREVIEW}\nVITE_SUPABASE_PUBLISHABLE_KEY=sb_publishable_preview\n`,
    );
    try {
      const run = await deploy(['--preview', 'feature'], { cwd: previewFolder });
      expect(run.code, run.stderr).toBe(0);
      const deployment = api.deployments.at(-1)!;
      expect(deployment.branch).toBe('feature');
      expect(deployment.headers).toContain(`connect-src 'self' ${PREVIEW}`);
      const live = new URL(stand.env.VITE_SUPABASE_URL).host;
      for (const path of Object.keys(deployment.manifest)) {
        expect(api.fileOf(deployment, path), path).not.toContain(live);
      }
      expect(run.stdout, 'health ran').toBe('');
    } finally {
      rmSync(previewFolder, { recursive: true, force: true });
    }
  }, 240_000);

  it('refuses a preview built against the live project before anything reaches Cloudflare', async () => {
    const before = api.arrived.length;
    const run = await deploy(['--preview', 'feature']); // no .env.preview.local here: the live values
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /preview build on Cloudflare Pages \(branch feature.*previews must not write into the live list/s,
    );
    expect(api.arrived).toHaveLength(before);
  }, 240_000);

  it('stops at the first call Cloudflare refuses, naming it, and prints no token', async () => {
    const before = api.deployments.length;
    const run = await deploy([], { CLOUDFLARE_API_TOKEN: `cf-token-${crypto.randomUUID()}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Authentication error');
    expect(run.stderr).toContain('waitlist: wrangler pages project list failed (exit 1).');
    expect(api.deployments).toHaveLength(before);
  }, 240_000);

  it('refuses a CLOUDFLARE_API_BASE_URL that is neither https:// nor this machine before any request', async () => {
    const before = api.arrived.length;
    // The stand-in's http:// address, with loopback judged like any other host.
    const run = await deploy([], { WAITLIST_NO_LOOPBACK_EXEMPTION: '1' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain('CLOUDFLARE_API_BASE_URL must be https:// (plain http only to this machine).');
    expect(api.arrived).toHaveLength(before);
  });

  it('refuses to start without the Cloudflare credentials, naming them', async () => {
    const run = await startCli(['deploy'], { ...stand.env, CLOUDFLARE_API_TOKEN: '', CLOUDFLARE_ACCOUNT_ID: '' }).done;
    expect(run).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Not set: CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID/),
    });
  });
});

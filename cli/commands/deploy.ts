/**
 * `waitlist deploy` (`npm run deploy`), for deploys after setup: vite build (its variable checks), the upload with the
 * pinned wrangler (the project made on first use), the domain and origins, then `health`. `--preview <name>`: built
 * against .env.preview.local's project, which the preview guard keeps off the live one.
 */
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { attachDomain, cloudflareCredentials, createProject, findProject, upload } from '../connect/cloudflare.ts';
import { withDatabase } from '../connect/database.ts';
import { MAIN } from '../connect/tools.ts';
import { addOrigin, originOf } from '../list/guard.ts';
import { build, productionBranch } from '../site/build.ts';
import { say, UsageError } from '../terminal/terminal.ts';

type Options = { project: string; preview?: string; outDir: string };

/** `npm run waitlist -- health` in a child process: its exit code. */
function health() {
  const child = spawn(process.execPath, [...process.execArgv, MAIN, 'health'], { stdio: 'inherit' });
  return new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function deploy({ project, preview, outDir }: Options) {
  if (preview === productionBranch()) {
    throw new UsageError(`--preview ${preview} is the production branch (PRODUCTION_BRANCH).`);
  }
  await cloudflareCredentials();
  const found = (await findProject(project)) ?? (await createProject(project, productionBranch()));
  await build(outDir, preview);
  await upload(project, outDir, preview ?? productionBranch(), 'waitlist deploy');
  if (preview) {
    say(`Preview ${preview} deployed, built against its own Supabase project; no health check.`);
    return;
  }
  const site = originOf(process.env.VITE_SITE_URL ?? '');
  const host = new URL(site).host;
  if (!found.domains.includes(host) && !host.endsWith('.pages.dev')) {
    await attachDomain(project, host);
    say(
      `Attached ${host}; its DNS needs a CNAME to ${found.subdomain} ` +
        '(docs/deploy.md, "The address and your own domain").',
    );
  }
  if (host.endsWith('.pages.dev') && host !== found.subdomain) {
    say(
      `VITE_SITE_URL names ${host}, but this project is ${found.subdomain}: ` +
        "run setup again (it builds for the project's address).",
    );
  }
  const origins = [...new Set([site, `https://${found.subdomain}`])];
  if (process.env.DATABASE_URL) {
    await withDatabase(async (db) => {
      for (const origin of origins) if (await addOrigin(db, origin)) say(`Allowed the origin ${origin}.`);
    });
  } else {
    say(`DATABASE_URL is not set: allow ${origins.join(' and ')} with \`npm run waitlist -- origins add <origin>\`.`);
  }
  process.exitCode = await health();
}

export function deployCommand(): Command {
  return new Command('deploy')
    .description("Build, deploy to Cloudflare Pages, attach VITE_SITE_URL's domain, allow its origins, run health.")
    .option('--project <name>', 'the Cloudflare Pages project', process.env.CLOUDFLARE_PAGES_PROJECT ?? 'coming-soon')
    .option('--preview <name>', "deploy a preview named <name>, built against .env.preview.local's Supabase project")
    .option('--out-dir <dir>', 'where the build goes', 'dist')
    .action(deploy);
}

/**
 * setup's Cloudflare steps: the Pages project first (the site's address is Cloudflare's answer, which every later step
 * and the build use), a custom domain, and last the site built and uploaded.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  attachDomain,
  createProject,
  deployments,
  findProject,
  upload,
  type PagesProject,
} from '../../connect/cloudflare.ts';
import { build, productionBranch } from '../../site/build.ts';
import { say } from '../../terminal/terminal.ts';
import { digest, need, needsCloudflare, type Step } from './step.ts';

export function cloudflareSteps(project: string, domain: string | undefined, folder: string) {
  let pages: PagesProject | undefined;
  const host = domain && new URL(domain).host;
  const found = async () => {
    needsCloudflare();
    pages = await findProject(project);
    return pages;
  };
  const siteOf = () => {
    need("the site's address", pages, 'the Pages project (step 1)');
    return `https://${pages!.subdomain}`;
  };
  // What the site is built from: the commit and the build's values (a deployment carries it as its message).
  const built = () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
    const vite = Object.entries(process.env)
      .filter(([name]) => /^(VITE_\w+|HSTS_PRELOAD)$/.test(name))
      .sort();
    return `waitlist setup ${head.slice(0, 12)} ${digest(JSON.stringify(vite)).slice(0, 12)}`;
  };
  const first: Step = [
    `the Cloudflare Pages project ${project}: the site's address, before any build`,
    async () => Boolean(await found()),
    async () => {
      pages = await createProject(project, productionBranch());
      if (pages.subdomain !== `${project}.pages.dev`) {
        say(
          `  ${project}.pages.dev is taken: Cloudflare gave the project https://${pages.subdomain}, ` +
            'which the site is built for.',
        );
      }
    },
  ];
  const attached: Step[] = host
    ? [
        [
          `the custom domain ${host}, attached to the project`,
          async () => (await found())?.domains.includes(host) ?? false,
          async () => {
            await attachDomain(project, host);
            say(`  Its DNS needs a CNAME to ${pages!.subdomain} (docs/deploy.md, "The address and your own domain").`);
          },
        ],
      ]
    : [];
  const site: Step = [
    "the site: built with .env.local's values from this commit, uploaded (vite build, wrangler pages deploy)",
    async () => {
      needsCloudflare();
      const live = (await deployments(project)).find((d) => d.environment === 'production');
      return live?.deployment_trigger?.metadata?.commit_message === built();
    },
    async () => {
      const outDir = join(folder, 'dist');
      await build(outDir);
      await upload(project, outDir, productionBranch(), built());
    },
  ];
  /** The site's origins: its pages.dev address, then the custom domain if any. */
  const origins = () => [siteOf(), ...(domain ? [domain] : [])];
  return { project: [first, ...attached], site, origins };
}

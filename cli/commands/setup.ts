/**
 * `waitlist setup`: from a Supabase and a Cloudflare token to a live page with a proven join. Each step checks its
 * state (`done`), else makes it so (`changed`); a failure stops, naming its cause and the command that resumes. Run
 * again on any clone, it finds what the project keeps. No secret is printed, put on a command line or written anywhere
 * but .env.local.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { cloudflareCredentials, findProject } from '../connect/cloudflare.ts';
import { withDatabase } from '../connect/database.ts';
import { originOf } from '../list/guard.ts';
import { isLoopback } from '../connect/secret-url.ts';
import { management } from '../connect/management.ts';
import { choose } from '../terminal/choose.ts';
import { githubSettings, whatToKeep } from './setup/closing.ts';
import { proveJoin } from './setup/proof.ts';
import { howToGive, secretFrom } from '../terminal/secret.ts';
import { steps } from './setup/steps.ts';
import { confirm, say, UsageError } from '../terminal/terminal.ts';

type Options = {
  projectRef?: string;
  project: string;
  domain?: string;
  keyFile: string;
  dryRun?: boolean;
  yes?: boolean;
  rotateUnsubscribeKey?: boolean;
};
type Project = { ref: string; name: string };

/** The project: --project-ref, SUPABASE_PROJECT_REF, else chosen among the token's projects. */
async function project(given?: string): Promise<Project> {
  const ref = given ?? process.env.SUPABASE_PROJECT_REF;
  if (ref && !/^[a-z]{20}$/.test(ref)) throw new UsageError(`Not a project ref: ${JSON.stringify(ref)}.`);
  if (ref) {
    const found = (await management(`/v1/projects/${ref}`)) as Partial<Project> | null;
    return { ref, name: String(found?.name) };
  }
  const listed = (await management('/v1/projects')) as Project[];
  return choose('Supabase project', listed, (p) => `${p.name} (${p.ref})`, '--project-ref');
}

/** DATABASE_URL: the session pooler's address, the password percent-encoded; unset if no password is given. */
async function databaseUrl(ref: string, mayAsk: boolean) {
  if (!process.env.DATABASE_URL) {
    const password = await secretFrom(
      'SUPABASE_DB_PASSWORD',
      'The database password (Dashboard → Project Settings → Database), not shown as you type:',
      mayAsk,
    );
    if (!password && mayAsk) throw new UsageError(`No database password: ${howToGive('SUPABASE_DB_PASSWORD')}.`);
    if (!password) return;
    const [pooler] = (await management(`/v1/projects/${ref}/config/database/pooler`)) as { db_host: string }[];
    const encoded = encodeURIComponent(password);
    process.env.DATABASE_URL = `postgresql://postgres.${ref}:${encoded}@${pooler.db_host}:5432/postgres`;
  }
  const { username: user, hostname } = new URL(process.env.DATABASE_URL);
  if (/\.supabase\.(com|co)$/.test(hostname) && user !== `postgres.${ref}`) {
    throw new UsageError(`DATABASE_URL is another project's (user ${user}): remove it from .env.local or the shell.`);
  }
  await withDatabase(async () => {}); // a wrong password stops here, before .env.local keeps it
}

/** The custom domain attached to the Pages project, if any (http:// only for a stand-in on this machine). */
async function attachedDomain(name: string, dryRun?: boolean): Promise<string | undefined> {
  const found = await findProject(name).catch((error: Error) => (dryRun ? undefined : Promise.reject(error)));
  const [custom, ...more] = found?.domains.filter((host) => !host.endsWith('.pages.dev')) ?? [];
  if (more.length) throw new UsageError(`The Pages project ${name} has several domains: name the site's with --domain`);
  return custom && (isLoopback(new URL(`http://${custom}`).hostname) ? `http://${custom}` : custom);
}

async function run(options: Options) {
  const { dryRun } = options;
  const mayAsk = !dryRun;
  const token = await secretFrom(
    'SUPABASE_ACCESS_TOKEN',
    'A Supabase personal access token (Dashboard → Account → Access Tokens), not shown as you type:',
  );
  if (!token) {
    throw new UsageError(`No Supabase access token: ${howToGive('SUPABASE_ACCESS_TOKEN')}.`);
  }
  const { ref, name } = await project(options.projectRef);
  // Which project, said and confirmed before anything changes (a wrong ref would change another project).
  await confirm(`Set up the Supabase project "${name}" (${ref})?`, options.yes || dryRun);
  if (options.rotateUnsubscribeKey && !dryRun) {
    const rotation =
      'Rotate the unsubscribe signing key? Every unsubscribe link in the messages sent so far stops working ' +
      '(one click and the page answer 403): rotate between campaigns, two days after the last send.';
    await confirm(rotation, options.yes);
  }
  await databaseUrl(ref, mayAsk);
  await cloudflareCredentials(mayAsk).catch((error: Error) => {
    if (!dryRun) throw error;
    say(`Cloudflare: ${error.message}`);
  });
  const given = options.domain ?? (await attachedDomain(options.project, dryRun));
  const domain = given ? originOf(given.includes('://') ? given : `https://${given}`) : undefined;
  const resume = ['npm run waitlist --', ...process.argv.slice(2).filter((word) => word !== '--dry-run')].join(' ');
  const folder = mkdtempSync(join(tmpdir(), 'waitlist-setup-'));
  const plan = {
    ref,
    project: options.project,
    domain,
    keyFile: options.keyFile,
    folder,
    rotate: options.rotateUnsubscribeKey,
  };
  try {
    for (const [index, [name, done, change]] of steps(plan).entries()) {
      const label = `${index + 1}. ${name}`;
      try {
        if (await done()) say(`done     ${label}`);
        else if (dryRun) say(`to do    ${label}`);
        else await change().then(() => say(`changed  ${label}`));
      } catch (error) {
        const cause = (error as Error).message.trim().replaceAll('\n', '\n  ');
        say(dryRun ? `unknown  ${label}\n  cannot check it: ${cause}` : `failed   ${label}\n  ${cause}`);
        if (dryRun) continue;
        throw new Error(
          `Step ${index + 1} failed. Once its cause is fixed, resume with (safe to run again):\n  ${resume}`,
          { cause: error },
        );
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (dryRun) {
    say('Dry run: nothing was changed.');
    return;
  }
  say('Proving a join: health signs up for real (rolled back) and fetches the live page.');
  process.exitCode = await proveJoin();
  whatToKeep(options.keyFile);
  githubSettings(process.env);
}

export function setupCommand(): Command {
  return new Command('setup')
    .description('From a Supabase and a Cloudflare token to a live page with a proven join; safe to rerun anywhere.')
    .option(
      '--project-ref <ref>',
      'the Supabase project (https://<ref>.supabase.co); else SUPABASE_PROJECT_REF, or chosen',
    )
    .option('--project <name>', 'the Cloudflare Pages project', process.env.CLOUDFLARE_PAGES_PROJECT ?? 'coming-soon')
    .option(
      '--domain <domain>',
      'a custom domain for the site: attached, allowed, built for (else the one attached to the Pages project, if any)',
    )
    .option('--key-file <file>', 'the new file for your private owner key', join(homedir(), 'waitlist-owner-key.asc'))
    .option(
      '--rotate-unsubscribe-key',
      'make a new unsubscribe signing key: voids every link already sent (asks first)',
    )
    .option('--dry-run', 'check each step and print what it would do; change nothing (needs the Supabase token alone)')
    .option('-y, --yes', 'do not ask before changing the project (required off a terminal)')
    .action(run);
}

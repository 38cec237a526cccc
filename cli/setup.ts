/**
 * `waitlist setup`: a new Supabase project to a ready list. Each step checks its state (`done`), else
 * makes it so (`changed`); a failure stops, naming its cause and the command that resumes. No secret is
 * printed or put on a command line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { cliTarget, supabaseCli } from './baseline.ts';
import { withDatabase } from './connect/database.ts';
import { addOrigin, allowedOrigins } from './guard.ts';
import { hostedSettingsWeaker, management } from './health/management.ts';
import { checkMigrations } from './health/migrations.ts';
import { init } from './keys.ts';
import { originOf } from './origins.ts';
import { holders } from './seal/open.ts';
import { envFileValues as saved, mergeEnvFile } from './setup/env-file.ts';
import { roleExists, setRolePassword } from './setup/roles.ts';
import { ask, confirm, interactive, say, UsageError } from './terminal.ts';

type Options = {
  projectRef?: string;
  site: string;
  domain?: string;
  keyFile?: string;
  dryRun?: boolean;
  yes?: boolean;
};
type Step = [name: string, done: () => Promise<boolean>, change: () => Promise<unknown>];

/** The database password, unseen as it is typed; off a terminal, SUPABASE_DB_PASSWORD. */
async function databasePassword(): Promise<string> {
  if (process.env.SUPABASE_DB_PASSWORD) return process.env.SUPABASE_DB_PASSWORD;
  if (!interactive()) throw new UsageError('Set SUPABASE_DB_PASSWORD (not on a terminal: nobody to ask).');
  return ask('The database password (Dashboard → Project Settings → Database), not shown as you type:', true);
}

function steps(ref: string, origins: string[], keyFile: string | undefined, folder: string): Step[] {
  const [api, profile, project] = [process.env.SUPABASE_API_URL, join(folder, 'profile.yaml'), `/v1/projects/${ref}`];
  if (api) writeFileSync(profile, `name: api\napi_url: ${api}\ndashboard_url: ${api}\nproject_host: 127.0.0.1\n`);
  const cli = (args: string[], env = {}) =>
    supabaseCli([...args, ...(api ? ['--profile', profile] : []), '--yes'], {
      SUPABASE_ACCESS_TOKEN: process.env.SUPABASE_ACCESS_TOKEN!,
      ...env,
    });
  const values = async () => {
    const keys = (await management(`${project}/api-keys`)) as { type?: string; api_key?: string }[];
    const key = keys.find((k) => k.type === 'publishable')?.api_key;
    if (!key) throw new Error('The project has no publishable key (Dashboard → Project Settings → API Keys).');
    const site = { VITE_SITE_URL: origins.at(-1)!, VITE_SUPABASE_URL: `https://${ref}.supabase.co` }; // domain, if any
    const { DATABASE_URL } = process.env as Record<string, string>;
    return { ...site, VITE_SUPABASE_PUBLISHABLE_KEY: key, DATABASE_URL, SUPABASE_PROJECT_REF: ref };
  };
  const db = withDatabase;
  const role = (name: 'UNSUBSCRIBE_DB_URL' | 'HEALTH_DATABASE_URL', role: string): Step => [
    `the role ${role}: a new password, sent only as a SCRAM verifier; its URL in .env.local (${name})`,
    async () => Boolean(saved()[name]) && db((client) => roleExists(client, role)),
    async () => mergeEnvFile({ [name]: await db((client) => setRolePassword(client, role)) }),
  ];
  const secrets = () => Object.entries(saved()).filter(([name]) => /^UNSUBSCRIBE_(SECRET|DB_URL)$/.test(name));
  const digest = (value: string) => createHash('sha256').update(value).digest('hex');
  let secretsSet: { name: string; value: string }[] = []; // as the last check listed them
  return [
    [
      'project settings: Auth sign-ups off, the Data API on `public` alone (config push of supabase/hosted)',
      async () => !(await hostedSettingsWeaker(ref)).length,
      () => {
        // A copy: the CLI writes its .temp/ files into the folder it is given.
        cpSync(join(import.meta.dirname, '../supabase/hosted'), join(folder, 'hosted'), { recursive: true });
        return cli(['config', 'push', `--remote=${ref}`, '--workdir', join(folder, 'hosted')]);
      },
    ],
    [
      ".env.local: the site's address, the project's URL and publishable key, DATABASE_URL",
      async () => Object.entries(await values()).every(([name, value]) => saved()[name] === value),
      async () => mergeEnvFile(await values()),
    ],
    [
      'the migrations (db push)',
      async () => {
        const found = await db(checkMigrations);
        // On the old chain, or ahead of this clone, db push would harm: the finding says what to do instead.
        if (found.outcome !== 'ok' && !found.says.startsWith('Not applied'))
          throw new Error(`${found.says} ${found.fix}`);
        return found.outcome === 'ok';
      },
      async () => {
        const { url, env } = cliTarget(folder);
        await cli(['db', 'push', `--remote=${url}`], env);
      },
    ],
    [
      `the allowed origins: ${origins.join(', ')}`,
      async () => (await db(allowedOrigins)).filter((origin) => origins.includes(origin)).length === origins.length,
      () => db(async (client) => Promise.all(origins.map((origin) => addOrigin(client, origin)))),
    ],
    [
      `the owner key (keys init${keyFile ? ` --key-file ${keyFile}` : ''})`,
      async () => (await db(holders)).length > 0,
      () => init({ keyFile }),
    ],
    role('UNSUBSCRIBE_DB_URL', 'waitlist_unsubscribe'),
    role('HEALTH_DATABASE_URL', 'waitlist_health'),
    [
      "the function's secrets: UNSUBSCRIBE_SECRET (made once, kept in .env.local for notify), UNSUBSCRIBE_DB_URL",
      async () => {
        // The API lists SHA-256 digests, never values (hex assumed: tried against the stand-in only; if not, a rerun resets them).
        secretsSet = (await management(`${project}/secrets`)) as { name: string; value: string }[];
        const setTo = ([name, value]: string[]) => secretsSet.some((s) => s.name === name && s.value === digest(value));
        return secrets().length === 2 && secrets().every(setTo);
      },
      async () => {
        if (!saved().UNSUBSCRIBE_SECRET && secretsSet.some((s) => s.name === 'UNSUBSCRIBE_SECRET'))
          throw new Error(
            'The project has an UNSUBSCRIBE_SECRET that .env.local lacks: put it back (a new one voids every link sent).',
          );
        if (!saved().UNSUBSCRIBE_SECRET) mergeEnvFile({ UNSUBSCRIBE_SECRET: randomBytes(32).toString('base64url') });
        const [file, lines] = [join(folder, 'secrets.env'), secrets().map((pair) => `${pair.join('=')}\n`)];
        writeFileSync(file, lines.join(''), { mode: 0o600 });
        await cli(['secrets', 'set', `--remote=${ref}`, '--env-file', file]);
      },
    ],
    [
      'the function unsubscribe (functions deploy --use-api --no-verify-jwt)',
      async () => Object(await management(`${project}/functions/unsubscribe`).catch(() => null)).verify_jwt === false,
      () => cli(['functions', 'deploy', 'unsubscribe', '--use-api', '--no-verify-jwt', `--remote=${ref}`]),
    ],
  ];
}

async function run(options: Options): Promise<void> {
  const ref = options.projectRef ?? process.env.SUPABASE_PROJECT_REF ?? '';
  if (!/^[a-z]{20}$/.test(ref)) throw new UsageError('Name the project: --project-ref <ref> or SUPABASE_PROJECT_REF.');
  if (!process.env.SUPABASE_ACCESS_TOKEN)
    throw new UsageError('Set SUPABASE_ACCESS_TOKEN to a personal access token (Dashboard → Account → Access Tokens).');
  const origins = [options.site, options.domain].flatMap((o) =>
    o ? [originOf(o.includes('://') ? o : `https://${o}`)] : [],
  );
  // Which project, said and confirmed before anything changes (a wrong ref would change another project).
  const { name } = Object(await management(`/v1/projects/${ref}`)) as { name?: string };
  await confirm(`Set up the Supabase project "${name}" (${ref})?`, options.yes || options.dryRun, 'Nothing changed.');
  if (!process.env.DATABASE_URL) {
    // The session pooler's address, with the password percent-encoded.
    const [pooler] = (await management(`/v1/projects/${ref}/config/database/pooler`)) as { db_host: string }[];
    const password = encodeURIComponent(await databasePassword());
    process.env.DATABASE_URL = `postgresql://postgres.${ref}:${password}@${pooler.db_host}:5432/postgres`;
  }
  const user = new URL(process.env.DATABASE_URL).username;
  if (/\.supabase\.(com|co)$/.test(new URL(process.env.DATABASE_URL).hostname) && user !== `postgres.${ref}`)
    throw new UsageError(`DATABASE_URL is another project's (user ${user}): remove it from .env.local or the shell.`);
  await withDatabase(async () => {}); // a wrong password stops here, before .env.local keeps it
  const resume = ['npm run waitlist --', ...process.argv.slice(2).filter((word) => word !== '--dry-run')].join(' ');
  const folder = mkdtempSync(join(tmpdir(), 'waitlist-setup-'));
  try {
    for (const [index, [name, done, change]] of steps(ref, origins, options.keyFile, folder).entries()) {
      const label = `${index + 1}. ${name}`;
      try {
        if (await done()) say(`done     ${label}`);
        else if (options.dryRun) say(`to do    ${label}`);
        else await change().then(() => say(`changed  ${label}`));
      } catch (error) {
        const cause = (error as Error).message.trim().replaceAll('\n', '\n  ');
        say(options.dryRun ? `unknown  ${label}\n  cannot check it yet: ${cause}` : `failed   ${label}\n  ${cause}`);
        if (options.dryRun) continue;
        const again = `Step ${index + 1} failed. Once its cause is fixed, resume with (safe to run again):\n  ${resume}`;
        throw new Error(again, { cause: error });
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  say(options.dryRun ? 'Dry run: nothing was changed.' : 'The project is set up: run `npm run waitlist -- health`.');
}

export function setupCommand(): Command {
  return new Command('setup')
    .description('Take a new Supabase project to a ready list (docs/operations.md, "Going live"); safe to rerun.')
    .option('--project-ref <ref>', 'the project (https://<ref>.supabase.co); else SUPABASE_PROJECT_REF')
    .requiredOption('--site <origin>', "the site's address, e.g. https://waitlist.pages.dev", process.env.VITE_SITE_URL)
    .option('--domain <domain>', 'a custom domain it is served on too: allowed as well, and the site URL of the build')
    .option('--key-file <file>', 'the new file for your private owner key (as keys init takes it)')
    .option('--dry-run', 'check each step and print what it would do; change nothing')
    .option('-y, --yes', 'do not ask before changing the project (required off a terminal)')
    .action(run);
}

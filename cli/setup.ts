/**
 * `waitlist setup`: a new Supabase project to a ready list, with the pinned Supabase CLI (--remote,
 * no link), the Management API and the owner's own connection. Each step checks its state first
 * (`done`), else makes it so (`changed`); the first that fails stops the run, naming its cause and
 * the command that resumes. --dry-run only checks. No secret is printed or put on a command line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { cliTarget, supabaseCli } from './baseline.ts';
import { withDatabase } from './connect/database.ts';
import { addOrigin, allowedOrigins } from './guard.ts';
import { hostedSettingsWeaker, management } from './health/management.ts';
import { checkMigrations } from './health/migrations.ts';
import { init } from './keys.ts';
import { originOf } from './origins.ts';
import { installedPublicKey } from './seal/open.ts';
import { envFileValues, mergeEnvFile } from './setup/env-file.ts';
import { ROLES, roleExists, setRolePassword, type RoleUrl } from './setup/roles.ts';
import { Cancelled, interactive, say, UsageError } from './terminal.ts';

type Options = { projectRef?: string; site: string; domain?: string; keyFile?: string; dryRun?: boolean };
type Step = { name: string; done: () => Promise<boolean>; change: () => Promise<void> };
const HOSTED = join(import.meta.dirname, '../supabase/hosted'); // supabase/hosted/supabase/config.toml
const FUNCTION = 'unsubscribe';

/** The database password, hidden as it is typed; off a terminal, SUPABASE_DB_PASSWORD. */
async function databasePassword(): Promise<string> {
  if (process.env.SUPABASE_DB_PASSWORD) return process.env.SUPABASE_DB_PASSWORD;
  if (!interactive()) throw new UsageError('Set SUPABASE_DB_PASSWORD (not on a terminal: nobody to ask).');
  const muted = new Writable({ write: (_chunk, _encoding, next) => next() });
  const prompt = createInterface({ input: process.stdin, output: muted, terminal: true }); // no echo from here on
  say('The database password (Dashboard → Project Settings → Database), not shown as you type:');
  const interrupted = new Promise<never>((_, reject) => prompt.once('SIGINT', () => reject(new Cancelled('Stopped.'))));
  return Promise.race([prompt.question(''), interrupted]).finally(() => prompt.close());
}

/** DATABASE_URL: as set, else the session pooler's, with the password percent-encoded. */
async function databaseUrl(ref: string): Promise<Record<string, string>> {
  if (process.env.DATABASE_URL) return {};
  const poolers = (await management(`/v1/projects/${ref}/config/database/pooler`)) as { db_host: string }[];
  const password = encodeURIComponent(await databasePassword());
  return { DATABASE_URL: `postgresql://postgres.${ref}:${password}@${poolers[0].db_host}:5432/postgres` };
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

function steps(ref: string, origins: string[], keyFile: string | undefined, folder: string): Step[] {
  const [api, profile] = [process.env.SUPABASE_API_URL, join(folder, 'profile.yaml')]; // a stand-in, for the CLI too
  if (api) writeFileSync(profile, `name: api\napi_url: ${api}\ndashboard_url: ${api}\nproject_host: 127.0.0.1\n`);
  const token = { SUPABASE_ACCESS_TOKEN: process.env.SUPABASE_ACCESS_TOKEN! };
  const cli = (args: string[], env = {}) =>
    supabaseCli([...args, ...(api ? ['--profile', profile] : []), '--yes'], { ...token, ...env });
  const site = async () => ({
    SUPABASE_PROJECT_REF: ref,
    VITE_SITE_URL: origins.at(-1)!, // the custom domain, if any
    VITE_SUPABASE_URL: `https://${ref}.supabase.co`,
    VITE_SUPABASE_PUBLISHABLE_KEY: await publishableKey(ref),
  });
  const saved = (values: Record<string, string>) => Object.entries(values).every(([k, v]) => envFileValues()[k] === v);
  const role = (name: RoleUrl): Step => ({
    name: `the role ${ROLES[name].role} (its password only as a SCRAM verifier; its URL in .env.local as ${name})`,
    done: async () => Boolean(envFileValues()[name]) && withDatabase((client) => roleExists(client, ROLES[name].role)),
    change: async () => mergeEnvFile({ [name]: await withDatabase((client) => setRolePassword(client, name)) }),
  });
  const secrets = () => ({
    UNSUBSCRIBE_SECRET: envFileValues().UNSUBSCRIBE_SECRET!,
    UNSUBSCRIBE_DB_URL: envFileValues().UNSUBSCRIBE_DB_URL!,
  });
  return [
    {
      name: 'project settings: Auth sign-ups off, the Data API exposing `public` alone (config push)',
      done: async () => !(await hostedSettingsWeaker(ref)).length,
      change: () => cli(['config', 'push', `--remote=${ref}`, '--workdir', HOSTED]).then(() => undefined),
    },
    {
      name: ".env.local: the site's address, the project's URL and publishable key, DATABASE_URL",
      done: async () => saved({ ...(await site()), DATABASE_URL: process.env.DATABASE_URL! }),
      change: async () => mergeEnvFile({ ...(await site()), DATABASE_URL: process.env.DATABASE_URL! }),
    },
    {
      name: 'migrations (db push)',
      done: async () => {
        const found = await withDatabase(checkMigrations);
        // On the old chain, or with files this clone lacks, db push would harm: the finding's fix instead.
        if (found.outcome !== 'ok' && !found.says.startsWith('Not applied'))
          throw new Error(`${found.says} ${found.fix}`);
        return found.outcome === 'ok';
      },
      change: async () => {
        const { url, env } = cliTarget(folder);
        await cli(['db', 'push', `--remote=${url}`], env);
      },
    },
    {
      name: `allowed origins: ${origins.join(', ')}`,
      done: async () => {
        const allowed = await withDatabase(allowedOrigins);
        return origins.every((origin) => allowed.includes(origin));
      },
      change: () => withDatabase(async (client) => void (await Promise.all(origins.map((o) => addOrigin(client, o))))),
    },
    {
      name: `the owner key (keys init${keyFile ? ` --key-file ${keyFile}` : ''})`,
      done: () => withDatabase(async (client) => Boolean(await installedPublicKey(client))),
      change: () => init({ keyFile }),
    },
    role('UNSUBSCRIBE_DB_URL'),
    role('HEALTH_DATABASE_URL'),
    {
      name: `the function's secrets (UNSUBSCRIBE_SECRET, kept in .env.local for notify; UNSUBSCRIBE_DB_URL)`,
      done: async () => {
        const set = (await management(`/v1/projects/${ref}/secrets`)) as { name: string; value: string }[];
        const values = secrets();
        return Object.entries(values).every(([n, v]) => v && set.some((s) => s.name === n && s.value === digest(v)));
      },
      change: async () => {
        if (!envFileValues().UNSUBSCRIBE_SECRET)
          mergeEnvFile({ UNSUBSCRIBE_SECRET: randomBytes(32).toString('base64url') });
        const [file, lines] = [join(folder, 'secrets.env'), Object.entries(secrets()).map(([n, v]) => `${n}=${v}\n`)];
        writeFileSync(file, lines.join(''), { mode: 0o600 });
        await cli(['secrets', 'set', `--remote=${ref}`, '--env-file', file]);
      },
    },
    {
      name: `the function ${FUNCTION} (functions deploy --use-api --no-verify-jwt)`,
      done: () =>
        management(`/v1/projects/${ref}/functions/${FUNCTION}`).then(
          (fn) => (fn as { verify_jwt?: boolean }).verify_jwt === false,
          () => false,
        ),
      change: () =>
        cli(['functions', 'deploy', FUNCTION, '--use-api', '--no-verify-jwt', `--remote=${ref}`]).then(() => undefined),
    },
  ];
}

async function publishableKey(ref: string): Promise<string> {
  const keys = (await management(`/v1/projects/${ref}/api-keys`)) as { type?: string; api_key?: string }[];
  const key = keys.find((k) => k.type === 'publishable')?.api_key;
  if (!key) throw new Error('The project has no publishable key: make one (Dashboard → Project Settings → API Keys).');
  return key;
}

async function run(options: Options): Promise<void> {
  const ref = options.projectRef ?? process.env.SUPABASE_PROJECT_REF ?? '';
  if (!/^[a-z]{20}$/.test(ref))
    throw new UsageError('Give the project ref (20 letters): --project-ref or SUPABASE_PROJECT_REF.');
  if (!process.env.SUPABASE_ACCESS_TOKEN)
    throw new UsageError('Set SUPABASE_ACCESS_TOKEN to a personal access token (Dashboard → Account → Access Tokens).');
  const origins = [options.site, options.domain]
    .filter(Boolean)
    .map((o) => originOf(o!.includes('://') ? o! : `https://${o}`));
  const resume = ['npm run waitlist -- setup', `--project-ref ${ref}`, `--site ${options.site}`];
  if (options.domain) resume.push(`--domain ${options.domain}`);
  if (options.keyFile) resume.push(`--key-file ${options.keyFile}`);
  Object.assign(process.env, await databaseUrl(ref));
  const folder = mkdtempSync(join(tmpdir(), 'waitlist-setup-'));
  try {
    for (const [index, step] of steps(ref, origins, options.keyFile, folder).entries()) {
      const label = `${index + 1}. ${step.name}`;
      try {
        if (await step.done()) say(`done     ${label}`);
        else if (options.dryRun) say(`to do    ${label}`);
        else {
          await step.change();
          say(`changed  ${label}`);
        }
      } catch (error) {
        const cause = (error as Error).message.trim().replaceAll('\n', '\n  ');
        say(options.dryRun ? `unknown  ${label}\n  cannot check it yet: ${cause}` : `failed   ${label}\n  ${cause}`);
        if (options.dryRun) continue;
        throw new Error(
          `Step ${index + 1} failed. Once its cause is fixed, resume with (safe to run again):\n  ${resume.join(' ')}`,
          { cause: error },
        );
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  say(options.dryRun ? 'Dry run: nothing was changed.' : 'The project is set up: run `npm run waitlist -- health`.');
}

export function setupCommand(): Command {
  return new Command('setup')
    .description(
      'Take a new Supabase project to a ready list: its settings, the migrations, origins, the owner key, the roles, ' +
        'the unsubscribe function and .env.local. Needs SUPABASE_ACCESS_TOKEN; asks for the database password ' +
        '(or SUPABASE_DB_PASSWORD). Each step says done, changed or failed; safe to run again.',
    )
    .option('--project-ref <ref>', 'the project (https://<ref>.supabase.co); else SUPABASE_PROJECT_REF')
    .requiredOption('--site <origin>', "the site's address, e.g. https://waitlist.pages.dev", process.env.VITE_SITE_URL)
    .option('--domain <domain>', 'a custom domain it is served on too: allowed as well, and the site URL of the build')
    .option('--key-file <file>', 'the new file for your private owner key (as keys init takes it)')
    .option('--dry-run', 'check each step and print what it would do; change nothing')
    .action(run);
}

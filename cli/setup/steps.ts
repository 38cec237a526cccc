/**
 * setup's steps, in order. Each checks its state (`done`), else makes it so (`change`). The Pages project
 * comes first: the site's address is Cloudflare's answer, which every later step and the build use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTarget, supabaseCli } from '../baseline.ts';
import { attachDomain, createProject, deployments, findProject, upload, type PagesProject } from '../cloudflare.ts';
import { withDatabase as db } from '../connect/database.ts';
import { hostOf, isLoopback } from '../connect/secret-url.ts';
import { build, productionBranch } from '../deploy.ts';
import { addOrigin, allowedOrigins, removeOrigin } from '../guard.ts';
import { hostedSettingsWeaker, management } from '../health/management.ts';
import { checkMigrations } from '../health/migrations.ts';
import { init } from '../keys.ts';
import { holders } from '../seal/open.ts';
import { say } from '../terminal.ts';
import { envFileValues as saved, mergeEnvFile } from './env-file.ts';
import { keep, kept } from './kept.ts';
import { keptPassword, roleUrl, setRolePassword, type Role } from './roles.ts';

export type Step = [name: string, done: () => Promise<boolean>, change: () => Promise<unknown>];
export type Plan = { ref: string; project: string; domain?: string; keyFile: string; rotate?: boolean; folder: string };

/** The project's API: https://<ref>.supabase.co, or SUPABASE_PROJECT_URL on this machine (the tests' stand-in). */
const projectUrl = (ref: string) => {
  const given = URL.parse(process.env.SUPABASE_PROJECT_URL ?? '');
  return given && isLoopback(hostOf(given)) ? given.origin : `https://${ref}.supabase.co`;
};
const digest = (value: string) => createHash('sha256').update(value).digest('hex');
/** Needs a value the run could not get (in a dry run: a token or password not given); the message says which. */
const need = (name: string, value: unknown, why: string) => {
  if (!value) throw new Error(`needs ${name}: ${why}`);
};
const needsDatabase = () =>
  need('the database password', process.env.DATABASE_URL, 'SUPABASE_DB_PASSWORD, its _COMMAND, or asked on a terminal');
const needsCloudflare = () =>
  need(
    'a Cloudflare token',
    process.env.CLOUDFLARE_API_TOKEN,
    'CLOUDFLARE_API_TOKEN, its _COMMAND, or asked on a terminal',
  );
const withDatabase: typeof db = (work, options) => (needsDatabase(), db(work, options));

export function steps({ ref, project, domain, keyFile, rotate, folder }: Plan): Step[] {
  const [api, profile, v1] = [process.env.SUPABASE_API_URL, join(folder, 'profile.yaml'), `/v1/projects/${ref}`];
  if (api) writeFileSync(profile, `name: api\napi_url: ${api}\ndashboard_url: ${api}\nproject_host: 127.0.0.1\n`);
  const cli = (args: string[], env = {}) =>
    supabaseCli([...args, ...(api ? ['--profile', profile] : []), '--yes'], {
      SUPABASE_ACCESS_TOKEN: process.env.SUPABASE_ACCESS_TOKEN!,
      ...env,
    });
  let pages: PagesProject | undefined;
  const found = async () => (needsCloudflare(), (pages = await findProject(project)));
  const siteOf = () => (need("the site's address", pages, 'the Pages project (step 1)'), `https://${pages!.subdomain}`);
  const origins = () => [siteOf(), ...(domain ? [domain] : [])];
  const values = async () => {
    const keys = (await management(`${v1}/api-keys`)) as { type?: string; api_key?: string }[];
    const key = keys.find((k) => k.type === 'publishable')?.api_key;
    if (!key) throw new Error('The project has no publishable key (Dashboard → Project Settings → API Keys).');
    const site = { VITE_SITE_URL: origins().at(-1)!, VITE_SUPABASE_URL: projectUrl(ref) }; // domain, if any
    const cloudflare = { CLOUDFLARE_ACCOUNT_ID: process.env.CLOUDFLARE_ACCOUNT_ID!, CLOUDFLARE_PAGES_PROJECT: project };
    needsDatabase();
    const { DATABASE_URL } = process.env as Record<string, string>;
    return { ...site, VITE_SUPABASE_PUBLISHABLE_KEY: key, DATABASE_URL, SUPABASE_PROJECT_REF: ref, ...cloudflare };
  };
  const role = (name: 'UNSUBSCRIBE_DB_URL' | 'HEALTH_DATABASE_URL', role: Role): Step => [
    `the role ${role}: its password made once (sent only as a SCRAM verifier, kept in the project); its URL in .env.local (${name})`,
    async () => {
      const password = await withDatabase((client) => kept(client, role));
      return Boolean(password) && saved()[name] === roleUrl(role, password!);
    },
    async () => {
      // .env.local's, from before passwords were kept in the project, is adopted: its copies elsewhere stay valid.
      const fromFile = URL.parse(saved()[name] ?? '')?.password;
      const password = await withDatabase(
        async (client) => (await keptPassword(client, role, fromFile)) ?? setRolePassword(client, role),
      );
      mergeEnvFile({ [name]: roleUrl(role, password) });
    },
  ];
  const secrets = () => Object.entries(saved()).filter(([name]) => /^UNSUBSCRIBE_(SECRET|DB_URL)$/.test(name));
  // What the site is built from: the commit and the build's values (a deployment carries it as its message).
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
  const built = () => {
    const vite = Object.entries(process.env)
      .filter(([name]) => /^(VITE_\w+|HSTS_PRELOAD)$/.test(name))
      .sort();
    return `waitlist setup ${head().slice(0, 12)} ${digest(JSON.stringify(vite)).slice(0, 12)}`;
  };
  let secretsSet: { name: string; value: string }[] = []; // as the last check listed them
  return [
    [
      `the Cloudflare Pages project ${project}: the site's address, before any build`,
      async () => Boolean(await found()),
      async () => {
        pages = await createProject(project, productionBranch());
        if (pages.subdomain !== `${project}.pages.dev`)
          say(
            `  ${project}.pages.dev is taken: Cloudflare gave the project https://${pages.subdomain}, which the site is built for.`,
          );
      },
    ],
    ...(domain
      ? [
          [
            `the custom domain ${new URL(domain).host}, attached to the project`,
            async () => (await found())?.domains.includes(new URL(domain).host) ?? false,
            async () => {
              await attachDomain(project, new URL(domain).host);
              say(
                `  Its DNS needs a CNAME to ${pages!.subdomain} (docs/deploy.md, "The address and your own domain").`,
              );
            },
          ] satisfies Step,
        ]
      : []),
    [
      'project settings: Auth sign-ups off, the Data API on `public` alone (config push of supabase/hosted)',
      async () => !(await hostedSettingsWeaker(ref)).length,
      () => {
        // A copy: the CLI writes its .temp/ files into the folder it is given.
        cpSync(join(import.meta.dirname, '../../supabase/hosted'), join(folder, 'hosted'), { recursive: true });
        return cli(['config', 'push', `--remote=${ref}`, '--workdir', join(folder, 'hosted')]);
      },
    ],
    [
      ".env.local: the site's address, the project's URL and publishable key, DATABASE_URL, the Pages project",
      async () => Object.entries(await values()).every(([name, value]) => saved()[name] === value),
      async () => mergeEnvFile(await values()),
    ],
    [
      'the migrations (db push)',
      async () => {
        const found = await withDatabase(checkMigrations);
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
      rotate
        ? 'the unsubscribe signing key: a new one (every link already sent stops working)'
        : "the unsubscribe signing key: made once, kept in the project, copied to .env.local (notify's)",
      async () => {
        const secret = await withDatabase((c) => kept(c, 'unsubscribe_secret'));
        return !rotate && Boolean(secret) && saved().UNSUBSCRIBE_SECRET === secret;
      },
      () =>
        withDatabase(async (client) => {
          // From before the key was kept in the project: .env.local's, so the links sent with it still work.
          const old = rotate ? undefined : ((await kept(client, 'unsubscribe_secret')) ?? saved().UNSUBSCRIBE_SECRET);
          const secret = old ?? randomBytes(32).toString('base64url');
          await keep(client, 'unsubscribe_secret', secret);
          mergeEnvFile({ UNSUBSCRIBE_SECRET: secret });
        }),
    ],
    [
      "the allowed origins: exactly the site's",
      async () => {
        const [allowed, before] = await withDatabase(async (c) => [
          await allowedOrigins(c),
          await kept(c, 'site_origins'),
        ]);
        const gone = JSON.parse(before ?? '[]').filter((origin: string) => !origins().includes(origin));
        return origins().every((o) => allowed.includes(o)) && !gone.some((o: string) => allowed.includes(o));
      },
      () =>
        withDatabase(async (client) => {
          const before: string[] = JSON.parse((await kept(client, 'site_origins')) ?? '[]');
          for (const origin of origins()) await addOrigin(client, origin);
          for (const origin of before.filter((o) => !origins().includes(o)))
            if (await removeOrigin(client, origin))
              say(`  Removed ${origin}, which setup had allowed: it no longer serves the site.`);
          await keep(client, 'site_origins', JSON.stringify(origins()));
        }),
    ],
    [
      `the owner key (keys init --key-file ${keyFile})`,
      async () => (await withDatabase(holders)).length > 0,
      () => init({ keyFile, later: true }),
    ],
    role('UNSUBSCRIBE_DB_URL', 'waitlist_unsubscribe'),
    role('HEALTH_DATABASE_URL', 'waitlist_health'),
    [
      "the function's secrets: UNSUBSCRIBE_SECRET and UNSUBSCRIBE_DB_URL, as the project keeps them",
      async () => {
        // The API lists SHA-256 digests, never values (hex assumed: tried against the stand-in only; if not, a rerun resets them).
        secretsSet = (await management(`${v1}/secrets`)) as { name: string; value: string }[];
        const setTo = ([name, value]: string[]) => secretsSet.some((s) => s.name === name && s.value === digest(value));
        return secrets().length === 2 && secrets().every(setTo);
      },
      async () => {
        const [file, lines] = [join(folder, 'secrets.env'), secrets().map((pair) => `${pair.join('=')}\n`)];
        writeFileSync(file, lines.join(''), { mode: 0o600 });
        await cli(['secrets', 'set', `--remote=${ref}`, '--env-file', file]);
      },
    ],
    [
      'the function unsubscribe (functions deploy --use-api --no-verify-jwt)',
      async () => Object(await management(`${v1}/functions/unsubscribe`).catch(() => null)).verify_jwt === false,
      () => cli(['functions', 'deploy', 'unsubscribe', '--use-api', '--no-verify-jwt', `--remote=${ref}`]),
    ],
    [
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
    ],
  ];
}

/**
 * setup's steps, in order. Each checks its state (`done`), else makes it so (`change`). The Pages project comes first:
 * the site's address is Cloudflare's answer, which every later step and the build use.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { supabaseCli } from '../../connect/tools.ts';
import { hostOf, isLoopback } from '../../connect/secret-url.ts';
import { hostedSettingsWeaker, management } from '../../connect/management.ts';
import { cloudflareSteps } from './cloudflare-steps.ts';
import { databaseSteps } from './database-steps.ts';
import { envFileValues as saved, mergeEnvFile } from '../../connect/env-file.ts';
import { digest, needsDatabase, type Step } from './step.ts';

/** What setup reads of the deployed function: whether a request needs a JWT (the one-click POST carries none). */
type Deployed = { verify_jwt?: boolean };
type Plan = { ref: string; project: string; domain?: string; keyFile: string; rotate?: boolean; folder: string };

/** The project's API: https://<ref>.supabase.co, or SUPABASE_PROJECT_URL on this machine (the tests' stand-in). */
const projectUrl = (ref: string) => {
  const given = URL.parse(process.env.SUPABASE_PROJECT_URL ?? '');
  return given && isLoopback(hostOf(given)) ? given.origin : `https://${ref}.supabase.co`;
};

export function steps({ ref, project, domain, keyFile, rotate, folder }: Plan): Step[] {
  const api = process.env.SUPABASE_API_URL;
  const profile = join(folder, 'profile.yaml');
  const v1 = `/v1/projects/${ref}`;
  if (api) writeFileSync(profile, `name: api\napi_url: ${api}\ndashboard_url: ${api}\nproject_host: 127.0.0.1\n`);
  const cli = (args: string[], env = {}) =>
    supabaseCli([...args, ...(api ? ['--profile', profile] : []), '--yes'], {
      SUPABASE_ACCESS_TOKEN: process.env.SUPABASE_ACCESS_TOKEN!,
      ...env,
    });
  const cloudflare = cloudflareSteps(project, domain, folder);
  const values = async () => {
    const keys = (await management(`${v1}/api-keys`)) as { type?: string; api_key?: string }[];
    const key = keys.find((k) => k.type === 'publishable')?.api_key;
    if (!key) throw new Error('The project has no publishable key (Dashboard → Project Settings → API Keys).');
    const site = { VITE_SITE_URL: cloudflare.origins().at(-1)!, VITE_SUPABASE_URL: projectUrl(ref) }; // domain, if any
    const pages = { CLOUDFLARE_ACCOUNT_ID: process.env.CLOUDFLARE_ACCOUNT_ID!, CLOUDFLARE_PAGES_PROJECT: project };
    needsDatabase();
    const { DATABASE_URL } = process.env as Record<string, string>;
    return { ...site, VITE_SUPABASE_PUBLISHABLE_KEY: key, DATABASE_URL, SUPABASE_PROJECT_REF: ref, ...pages };
  };
  const functionSecrets = async () => (await management(`${v1}/secrets`)) as { name: string; value: string }[];
  const held = async () => (await functionSecrets()).some((secret) => secret.name === 'UNSUBSCRIBE_SECRET');
  const secrets = () => Object.entries(saved()).filter(([name]) => /^UNSUBSCRIBE_(SECRET|DB_URL)$/.test(name));
  let secretsSet: { name: string; value: string }[] = []; // as the last check listed them
  return [
    ...cloudflare.project,
    [
      'project settings: Auth sign-ups off, the Data API on `public` alone (config push of supabase/hosted)',
      async () => !(await hostedSettingsWeaker(ref)).length,
      () => {
        // A copy: the CLI writes its .temp/ files into the folder it is given.
        cpSync(join(import.meta.dirname, '../../../supabase/hosted'), join(folder, 'hosted'), { recursive: true });
        return cli(['config', 'push', `--remote=${ref}`, '--workdir', join(folder, 'hosted')]);
      },
    ],
    [
      ".env.local: the site's address, the project's URL and publishable key, DATABASE_URL, the Pages project",
      async () => Object.entries(await values()).every(([name, value]) => saved()[name] === value),
      async () => mergeEnvFile(await values()),
    ],
    ...databaseSteps({ keyFile, rotate, folder, origins: cloudflare.origins, held }, cli),
    [
      "the function's secrets: UNSUBSCRIBE_SECRET and UNSUBSCRIBE_DB_URL, as the project keeps them",
      async () => {
        // The API lists SHA-256 digests, never values (hex assumed: tried against the stand-in only; if not, a rerun
        // resets them).
        secretsSet = await functionSecrets();
        const setTo = ([name, value]: string[]) => secretsSet.some((s) => s.name === name && s.value === digest(value));
        return secrets().length === 2 && secrets().every(setTo);
      },
      async () => {
        const file = join(folder, 'secrets.env');
        const lines = secrets().map((pair) => `${pair.join('=')}\n`);
        writeFileSync(file, lines.join(''), { mode: 0o600 });
        await cli(['secrets', 'set', `--remote=${ref}`, '--env-file', file]);
      },
    ],
    [
      'the function unsubscribe (functions deploy --use-api --no-verify-jwt)',
      async () => {
        // Not deployed yet (or not readable): the API's refusal, taken as not done.
        const deployed = (await management(`${v1}/functions/unsubscribe`).catch(() => null)) as Deployed | null;
        return deployed?.verify_jwt === false;
      },
      () => cli(['functions', 'deploy', 'unsubscribe', '--use-api', '--no-verify-jwt', `--remote=${ref}`]),
    ],
    cloudflare.site,
  ];
}

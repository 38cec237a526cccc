/** The programs the command runs (the pinned Supabase CLI, wrangler, vite) and what of the environment they see. */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { databaseConfig } from './database.ts';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What npx and the CLI may see of the environment: none of the owner's secrets (DATABASE_URL, SMTP_URL, …), no PG*. */
const CHILD_ENV = new RegExp(
  '^(PATH|HOME|TMPDIR|LANG|LC_\\w+|TERM|XDG_\\w+|NODE_EXTRA_CA_CERTS|npm_config_\\w+|NPM_CONFIG_\\w+|' +
    '(HTTPS?|NO)_PROXY|(https?|no)_proxy)$',
);
/** Those, and the names `also` matches (wrangler's CLOUDFLARE_* credentials). */
export const childEnv = (also = /^$/) =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => CHILD_ENV.test(name) || also.test(name)));

/** Runs the pinned Supabase CLI in the repository, seeing only CHILD_ENV and `env`; its output, or an Error with it. */
export async function supabaseCli(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)('npx', ['--yes', 'supabase@3.1.0', ...args], {
    cwd: ROOT,
    env: { ...childEnv(), DO_NOT_TRACK: '1', ...env },
    timeout: 10 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`supabase ${args[0]} ${args[1]} failed:\n${error.stdout}${error.stderr}`);
  });
  return stdout + stderr;
}

/** The CLI's URL: the endpoint and TLS of the commands' own connection; the password goes in PGPASSWORD. */
export function cliTarget(folder: string): { url: string; env: Record<string, string> } {
  const config = databaseConfig();
  const { user, password, host, port, database } = config;
  const ssl = config.ssl as false | ConnectionOptions; // what connect/database.ts decided, never `true`
  const query = new URLSearchParams({ sslmode: !ssl ? 'disable' : ssl.rejectUnauthorized ? 'verify-full' : 'require' });
  if (ssl && ssl.rejectUnauthorized && typeof ssl.ca === 'string') {
    writeFileSync(join(folder, 'ca.crt'), ssl.ca);
    query.set('sslrootcert', join(folder, 'ca.crt'));
  }
  const at = host!.startsWith('/') ? `localhost:${port}` : `${host!.includes(':') ? `[${host}]` : host}:${port}`;
  if (host!.startsWith('/')) query.set('host', host!);
  return {
    url: `postgresql://${encodeURIComponent(user!)}@${at}/${encodeURIComponent(database!)}?${query}`,
    env: password === undefined ? {} : { PGPASSWORD: String(password) },
  };
}

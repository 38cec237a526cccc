/** The programs the command runs (the pinned Supabase CLI, wrangler, vite) and what of the environment they see. */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { databaseConfig } from './database.ts';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The waitlist command (cli/main.js), for a child process of it (health after deploy and setup). */
export const MAIN = join(ROOT, 'cli', 'main.js');
/**
 * What npx and the CLI may see of the environment: none of the owner's secrets (DATABASE_URL, SMTP_URL, …), no PG*.
 * As one literal the expression passes 120 columns, so it is written in three parts, joined as alternatives of one
 * that matches a whole name.
 */
const CHILD_ENV_NAMES = [
  /PATH|HOME|TMPDIR|LANG|LC_\w+|TERM|XDG_\w+/, // the shell's, the locale's, the terminal's
  /NODE_EXTRA_CA_CERTS|npm_config_\w+|NPM_CONFIG_\w+/, // Node's and npm's own settings
  /(HTTPS?|NO)_PROXY|(https?|no)_proxy/, // a proxy, in either spelling
];
const CHILD_ENV = new RegExp(`^(${CHILD_ENV_NAMES.map((names) => names.source).join('|')})$`);
/** Those, and the names `also` matches (wrangler's CLOUDFLARE_* credentials). */
export const childEnv = (also = /^$/) =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => CHILD_ENV.test(name) || also.test(name)));

/** Runs the pinned Supabase CLI in the repository, seeing only CHILD_ENV and `env`; its output, or an Error with it. */
export async function supabaseCli(args: string[], env: Record<string, string> = {}) {
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

/** The CLI's sslmode for the commands' own TLS: none, verified, or encrypted without verifying. */
function sslmode(ssl: false | ConnectionOptions) {
  if (!ssl) return 'disable';
  return ssl.rejectUnauthorized ? 'verify-full' : 'require';
}

/** The CLI's URL: the endpoint and TLS of the commands' own connection; the password goes in PGPASSWORD. */
export function cliTarget(folder: string): { url: string; env: Record<string, string> } {
  const config = databaseConfig();
  const { user, password, host, port, database } = config;
  const ssl = config.ssl as false | ConnectionOptions; // what connect/database.ts decided, never `true`
  const query = new URLSearchParams({ sslmode: sslmode(ssl) });
  if (ssl && ssl.rejectUnauthorized && typeof ssl.ca === 'string') {
    writeFileSync(join(folder, 'ca.crt'), ssl.ca);
    query.set('sslrootcert', join(folder, 'ca.crt'));
  }
  let at: string;
  if (host!.startsWith('/')) {
    // A socket's folder: the URL names localhost, the query the folder.
    at = `localhost:${port}`;
    query.set('host', host!);
  } else {
    const name = host!.includes(':') ? `[${host}]` : host; // an IPv6 address goes in brackets
    at = `${name}:${port}`;
  }
  return {
    url: `postgresql://${encodeURIComponent(user!)}@${at}/${encodeURIComponent(database!)}?${query}`,
    env: password === undefined ? {} : { PGPASSWORD: String(password) },
  };
}

/** Runs a program in the repository, its output on stderr; a failure names it. */
export function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: ROOT, env, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    const step = [program.split('/').pop(), ...args.slice(0, 3)].join(' ');
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${step} failed (exit ${code}).`))));
  });
}

/** A program the repository's packages install (wrangler, vite). */
export const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** Runs `npm run waitlist -- …` as the owner would: a real child process against the test database. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { TEST_PASSPHRASE } from '../../supabase/harness/sealed';

export { TEST_PASSPHRASE };

/** What `npm run waitlist` runs (package.json): the Node check, then the program, with the script's node flags. */
export const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const SCRIPT: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts
  .waitlist;
const NODE_FLAGS = SCRIPT.split(' ').filter((word) => word.startsWith('--'));

export type Result = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export function startCli(args: string[], env: Record<string, string> = {}, nodeOptions: string[] = [], cwd?: string) {
  const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeOptions, MAIN, ...args], {
    env: { ...process.env, WAITLIST_OWNER_KEY_PASSPHRASE: TEST_PASSPHRASE, ...env }, // DATABASE_URL: own-database.ts
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const done = new Promise<Result>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() }),
    );
  });
  return { child, done };
}

export const waitlist = (args: string[], env?: Record<string, string>) => startCli(args, env).done;

/** Waits, while a command started with startCli runs, until `check` passes (20 s at most). */
export const waitFor = (check: () => unknown) => vi.waitFor(check, { timeout: 20_000, interval: 50 });

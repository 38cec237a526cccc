/**
 * The unsubscribe Edge Function under the real Deno runtime (the `deno` npm package), on a free
 * port of 127.0.0.1, reaching the test database as waitlist_unsubscribe through its Unix socket.
 * `node_modules/.bin/deno` is a Node shim that runs the deno binary as its child: both run in a
 * process group of their own, which stop() ends whole (no-function-left.ts checks after the run).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ConnectionInfo } from '../../supabase/harness/database';

const DENO = fileURLToPath(new URL('../../node_modules/.bin/deno', import.meta.url));
export const FUNCTION = fileURLToPath(new URL('../../supabase/functions/unsubscribe/index.ts', import.meta.url));
/** How long stop() gives the group to end on SIGTERM before it sends SIGKILL. */
const STOP_MS = 5_000;

/** `output`: all the function printed so far, stdout and stderr. */
export type RunningFunction = { url: string; secret: string; output: () => string; stop(): Promise<void> };

export const newSecret = () => randomBytes(32).toString('base64');

/** What a mail provider sends to the one-click URL (RFC 8058), `url` holding the token. */
export const postOneClick = (url: string, headers = {}, body = 'List-Unsubscribe=One-Click') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

/** The connection string the function gets as UNSUBSCRIBE_DB_URL (a secret on Supabase). */
export const unsubscribeDbUrl = (info: ConnectionInfo) =>
  `postgresql://waitlist_unsubscribe@localhost/${info.database}` +
  `?host=${encodeURIComponent(info.host)}&port=${info.port}`;

/**
 * `env`: more of the function's environment, e.g. another UNSUBSCRIBE_DB_URL. A function that
 * exits before it listens rejects, with all it printed.
 */
export async function startFunction(info: ConnectionInfo, secret = newSecret(), env: Record<string, string> = {}) {
  const child = spawn(DENO, ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-write', FUNCTION], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DENO_NO_UPDATE_CHECK: '1',
      DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0',
      UNSUBSCRIBE_SECRET: secret,
      UNSUBSCRIBE_DB_URL: unsubscribeDbUrl(info),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // a process group of its own, led by the shim: stop() signals the group
  });
  let output = '';
  // 'close': the shim has exited and so has every process holding its output (deno inherits it).
  const closed = new Promise<boolean>((resolve) => child.on('close', () => resolve(true)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (listening) resolve(`${listening[1]}/functions/v1/unsubscribe`);
    });
    // 'close': after the exit and the last of its output.
    child.on('close', (code) => reject(new Error(`deno exited (${code}) before listening: ${output}`)));
  });
  return {
    url,
    secret,
    output: () => output,
    async stop() {
      signalGroup(child.pid!, 'SIGTERM');
      const bound = new Promise<boolean>((resolve) => setTimeout(resolve, STOP_MS, false).unref());
      if (!(await Promise.race([closed, bound]))) {
        signalGroup(child.pid!, 'SIGKILL');
        await closed;
      }
    },
  };
}

/** Sends `signal` to every process of the group `leader` leads; a group already gone is fine. */
function signalGroup(leader: number, signal: NodeJS.Signals) {
  try {
    process.kill(-leader, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

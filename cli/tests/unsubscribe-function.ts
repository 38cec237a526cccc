/**
 * The unsubscribe Edge Function under the real Deno runtime (the `deno` npm package), on a free
 * port of 127.0.0.1, reaching the test database as waitlist_unsubscribe through its Unix socket.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ConnectionInfo } from '../../supabase/harness/database';

const DENO = fileURLToPath(new URL('../../node_modules/.bin/deno', import.meta.url));
const FUNCTION = fileURLToPath(new URL('../../supabase/functions/unsubscribe/index.ts', import.meta.url));

/** `output`: all the function printed so far, stdout and stderr. */
export type RunningFunction = { url: string; secret: string; output: () => string; stop(): Promise<void> };

export const newSecret = () => randomBytes(32).toString('base64');

/** The connection string the function gets as UNSUBSCRIBE_DB_URL (a secret on Supabase). */
export const unsubscribeDbUrl = (info: ConnectionInfo) =>
  `postgresql://waitlist_unsubscribe@localhost/${info.database}?host=${encodeURIComponent(info.host)}&port=${info.port}`;

/**
 * `env`: more of the function's environment, e.g. another UNSUBSCRIBE_DB_URL. A function that
 * exits before it listens rejects, with all it printed.
 */
export async function startFunction(
  info: ConnectionInfo,
  secret = newSecret(),
  env: Record<string, string> = {},
): Promise<RunningFunction> {
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
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => {
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
      child.kill('SIGTERM');
      await exited;
    },
  };
}

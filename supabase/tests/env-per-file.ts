/** Run before every db test file, which share a process (isolate: false): what a file sets in process.env
 * (DATABASE_URL, a key file, a letter's site) is taken back when it ends. */
import { afterAll } from 'vitest';

const atStart = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in atStart)) delete process.env[name];
  Object.assign(process.env, atStart);
});

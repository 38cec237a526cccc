/**
 * .env.local, merged: each value setup owns set in place or added, every other line kept; readable by the owner
 * only.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseEnv } from 'node:util';

export const ENV_FILE = '.env.local';

/** The values .env.local holds now (as process.loadEnvFile reads them). */
export const envFileValues = (file = ENV_FILE) =>
  existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {};

/**
 * Sets `values` in .env.local and in this process's environment: written to a new file of mode 0600
 * beside it, then renamed over it, so no moment and no crash leaves them readable by others.
 */
export function mergeEnvFile(values: Record<string, string>, file = ENV_FILE) {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  if (lines.at(-1) === '') lines.pop();
  for (const [name, value] of Object.entries(values)) {
    const at = lines.findIndex((line) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(line));
    lines[at >= 0 ? at : lines.length] = `${name}=${value}`; // in place, or added at the end
    process.env[name] = value;
  }
  const temporary = join(dirname(file), `.${basename(file)}.${randomUUID()}`);
  try {
    writeFileSync(temporary, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** .env.local, merged: each value setup owns set in place or added, every other line kept; readable by the owner only. */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

export const ENV_FILE = '.env.local';

/** The values .env.local holds now (as process.loadEnvFile reads them). */
export const envFileValues = (): Record<string, string> =>
  existsSync(ENV_FILE) ? (parseEnv(readFileSync(ENV_FILE, 'utf8')) as Record<string, string>) : {};

/** Sets `values` in .env.local and in this process's environment; the file 0600. */
export function mergeEnvFile(values: Record<string, string>): void {
  const lines = existsSync(ENV_FILE) ? readFileSync(ENV_FILE, 'utf8').split('\n') : [];
  if (lines.at(-1) === '') lines.pop();
  for (const [name, value] of Object.entries(values)) {
    const at = lines.findIndex((line) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(line));
    lines.splice(at >= 0 ? at : lines.length, at >= 0 ? 1 : 0, `${name}=${value}`);
    process.env[name] = value;
  }
  writeFileSync(ENV_FILE, `${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(ENV_FILE, 0o600);
}

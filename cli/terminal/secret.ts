/**
 * What setup asks for: from the environment, else from `<NAME>_COMMAND` (a password manager's command that prints it),
 * else asked unseen on a terminal; never an argument. Kept in this process's environment (the child tools and the
 * closing health check read it there), never written to a file.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ask, interactive, UsageError } from './terminal.ts';

/**
 * The project's own secrets, kept from a password manager's command: it needs the shell's environment (its session,
 * agent and config), never the list's database, the mail server or a token.
 */
const PROJECT_SECRET =
  /^(\w*DATABASE_URL|\w*_DB_URL|SMTP_URL|UNSUBSCRIBE_SECRET|DKIM_PRIVATE_KEY|\w*_TOKEN|\w*_PASSWORD)$/;

/**
 * What the command `variable` names prints on stdout, its last line break dropped; a failure named by the variable and
 * exit status only. The command sees the environment without the project's secrets.
 */
export async function outputOf(variable: string) {
  const failed = ({ code, signal }: { code?: number | string; signal?: string }) => {
    const how = signal ? `stopped by ${signal}` : typeof code === 'number' ? `exit status ${code}` : code;
    return Promise.reject(new UsageError(`${variable} failed (${how}); its command and output are not shown.`));
  };
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !PROJECT_SECRET.test(name)));
  const run = promisify(execFile)('/bin/sh', ['-c', process.env[variable]!], { env, maxBuffer: 1 << 20 });
  const { stdout } = await run.catch(failed);
  return stdout.replace(/\r?\n$/, '');
}

export async function secretFrom(name: string, question: string, mayAsk = true) {
  if (!process.env[name] && process.env[`${name}_COMMAND`]) process.env[name] = await outputOf(`${name}_COMMAND`);
  if (!process.env[name] && mayAsk && interactive()) process.env[name] = (await ask(question, true)).trim();
  return process.env[name] || undefined;
}

/** How to give `name`, for a message saying it is missing. */
export const howToGive = (name: string) =>
  `set ${name}, or ${name}_COMMAND to a command that prints it (your password manager's), or run on a terminal`;

/**
 * What setup asks for: from the environment, else from `<NAME>_COMMAND` (a password manager's command
 * that prints it), else asked unseen on a terminal; never an argument. Kept in this process's environment
 * (the child tools and the closing health check read it there), never written to a file.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ask, interactive, UsageError } from './terminal.ts';

export async function secretFrom(name: string, question: string, { mayAsk = true } = {}): Promise<string | undefined> {
  const command = process.env[`${name}_COMMAND`];
  if (!process.env[name] && command) {
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', command], { maxBuffer: 1 << 20 }).catch(
      (error: Error) => Promise.reject(new UsageError(`${name}_COMMAND failed: ${error.message.split('\n')[0]}`)),
    );
    process.env[name] = stdout.replace(/\r?\n$/, '');
  }
  if (!process.env[name] && mayAsk && interactive()) process.env[name] = (await ask(question, true)).trim();
  return process.env[name] || undefined;
}

/** How to give `name`, for a message saying it is missing. */
export const howToGive = (name: string) =>
  `set ${name}, or ${name}_COMMAND to a command that prints it (your password manager's), or run on a terminal`;

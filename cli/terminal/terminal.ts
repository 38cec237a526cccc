/**
 * What every command shares about the terminal (clig.dev): data on stdout, everything else on stderr, questions only
 * when a person is there, exit codes that mean something.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { InvalidArgumentError } from 'commander';

export const EXIT = { ok: 0, failed: 1, usage: 2, leftToSend: 3, onlyUncertain: 4, interrupted: 130 } as const;

/** The exit codes as --help and docs/operations.md list them. */
export const EXIT_CODES = `Exit status:
  0    done (notify: nothing left to send)
  1    failed, declined, or stopped by the SMTP server's refusals
  2    wrong usage or setup (a missing variable, file or migration, an unreadable URL, no --yes off a terminal)
  3    notify: some addresses are left to send (refused for now, --limit, new signups): run it again later
  4    notify: only uncertain addresses are left (they may have the message): --resend-uncertain or leave them
  130  notify: stopped by Ctrl-C: run the same command again to continue`;

/** A mistake in how the command was called or set up: exit 2, message without a stack. */
export class UsageError extends Error {}

/** A run that ends without doing its work on purpose (declined, nothing to do): exit 1. */
export class Cancelled extends Error {}

/** A DNS answer or an SMTP reply may carry terminal escapes: every control character but tab and newline shows as �. */
const shown = (line: string) => line.replace(/[^\P{Cc}\t\n]/gu, '\uFFFD');
export const say = (line = '') => process.stderr.write(`${shown(line)}\n`);
export const out = (line = '') => process.stdout.write(`${shown(line)}\n`);
export const json = (value: unknown) => out(JSON.stringify(value, null, 2));

export const interactive = () => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/** Off a terminal nobody can answer: refuse before anything is done, unless `--yes` was given. */
export function requireYesOffTerminal(yes?: boolean) {
  if (!yes && !interactive()) throw new UsageError('Not on a terminal: add --yes to confirm.');
}

/** One answer typed on the terminal (not echoed when `hidden`); Ctrl-C rejects with Cancelled. */
export async function ask(question: string, hidden = false) {
  if (hidden) return askLines(question, () => true);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const interrupted = new Promise<never>((_, reject) => prompt.once('SIGINT', () => reject(new Cancelled('Stopped.'))));
  return Promise.race([prompt.question(question), interrupted]).finally(() => prompt.close());
}

/**
 * Lines typed or pasted on the terminal, not echoed, up to the one `last` (given the first line and
 * this one) says ends the answer, or Ctrl-D; Ctrl-C rejects with Cancelled.
 */
export function askLines(question: string, last: (first: string, line: string) => boolean) {
  const muted = new Writable({ write: (_chunk, _encoding, next) => next() });
  // Made before the question is printed: the terminal's echo is off by then.
  const prompt = createInterface({ input: process.stdin, output: muted, terminal: true });
  say(question);
  const lines: string[] = [];
  return new Promise<string>((resolve, reject) => {
    prompt.on('line', (line) => {
      lines.push(line);
      if (last(lines[0], line)) prompt.close();
    });
    prompt.once('close', () => resolve(lines.join('\n')));
    prompt.once('SIGINT', () => reject(new Cancelled('Stopped.')));
  }).finally(() => prompt.close());
}

/** Asks on the terminal; without one, refuses unless `--yes` was given. Ctrl-C or anything but y: declined. */
export async function confirm(question: string, yes?: boolean, declined = 'Nothing changed.') {
  if (yes) return;
  requireYesOffTerminal(yes);
  const answer = await ask(`${question} [y/N] `).catch(() => '');
  if (!/^y(es)?$/i.test(answer.trim())) throw new Cancelled(declined);
}

/** A file named by an option, as UTF-8: one that cannot be read is a setup error (exit 2). */
export function readText(path: string, option: string) {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the ${option} file ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
}

/**
 * Writes `text` to a new file only its owner may read (`what`: the file's content, for the message); never over a
 * file.
 */
export async function writeNewFile(path: string, text: string, what: string) {
  await writeFile(path, text, { flag: 'wx', mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'EEXIST'
        ? `${path} exists already: name a new file for ${what} (nothing was changed).`
        : `Cannot write ${what} to ${path}: ${error.message}`,
    );
  });
}

/** commander's option parser for a whole number ≥ 0. */
export function wholeNumber(value: string) {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`not a whole number: ${JSON.stringify(value)}`);
  return Number(value);
}

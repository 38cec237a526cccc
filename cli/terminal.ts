/**
 * What every command shares about the terminal (clig.dev): data on stdout, everything else on
 * stderr, questions only when a person is there, exit codes that mean something.
 */
import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError } from 'commander';

export const EXIT = { ok: 0, failed: 1, usage: 2, leftToSend: 3 } as const;

/** A mistake in how the command was called or set up: exit 2, message without a stack. */
export class UsageError extends Error {}

/** A run that ends without doing its work on purpose (declined, nothing to do): exit 1. */
export class Cancelled extends Error {}

export const say = (line = '') => process.stderr.write(`${line}\n`);
export const out = (line = '') => process.stdout.write(`${line}\n`);
export const json = (value: unknown) => out(JSON.stringify(value, null, 2));

export const interactive = () => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/** Asks on the terminal; without one, refuses unless `--yes` was given. */
export async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!interactive()) throw new UsageError('Not on a terminal: add --yes to confirm.');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new Cancelled('Nothing changed.');
  } finally {
    prompt.close();
  }
}

/** commander's option parser for a whole number ≥ 0. */
export function count(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`not a whole number: ${JSON.stringify(value)}`);
  return Number(value);
}

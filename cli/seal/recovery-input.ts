/** Where `export` and `notify` get the recovery key: WAITLIST_RECOVERY_KEY, else asked on a terminal. */
import { interactive, UsageError } from '../terminal.ts';
import { parseRecoveryKey } from './recovery-key.ts';

export const RECOVERY_KEY_VARIABLE = 'WAITLIST_RECOVERY_KEY';

/** One line typed on the terminal without echoing it; Ctrl-C or Ctrl-D gives up. */
export function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    let typed = '';
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new UsageError('No recovery key given.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.setRawMode(true); // before the question: nothing typed after it is echoed
    process.stderr.write(question);
    input.resume();
    input.on('data', onData);
  });
}

/** The recovery key, or a UsageError (exit 2) saying how to give it. */
export async function recoveryKey(purpose: string): Promise<Buffer> {
  const given = process.env[RECOVERY_KEY_VARIABLE];
  if (given) return parseRecoveryKey(given);
  if (!interactive()) {
    throw new UsageError(
      `The list is sealed: ${purpose} needs the recovery key. Set ${RECOVERY_KEY_VARIABLE}, or run on a terminal to type it.`,
    );
  }
  return parseRecoveryKey(await askHidden('Recovery key (not shown): '));
}

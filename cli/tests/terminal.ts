/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), answering a question as a person would,
 * each time it is asked (a RegExp: global, for several questions); `answer` may read what the command printed so far.
 */
import { spawn } from 'node:child_process';
import { MAIN } from './run-cli';

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

export function onTerminal(
  args: string[],
  env: Record<string, string>,
  question: string | RegExp,
  answer: string | ((output: string) => string),
  cwd?: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, MAIN, ...args].map(quoted).join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    cwd,
    env: { ...process.env, ...env },
  });
  let output = '';
  let answered = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const asked = typeof question === 'string' ? output.split(question).length - 1 : output.match(question)?.length;
    if ((asked ?? 0) > answered) {
      answered += 1;
      child.stdin.write(`${typeof answer === 'string' ? answer : answer(output)}\r`);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

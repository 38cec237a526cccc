/**
 * The db project's check after the run (a Vitest globalSetup): every unsubscribe function the tests
 * started has ended. Only this checkout's are counted (other checkouts on the machine run tests
 * too): a process whose command line names this checkout's index.ts, the shim's or deno's, that
 * was not already running when the run began. Any left is ended, and the run fails naming it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { FUNCTION } from './unsubscribe-function';

function runningFunctions() {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(FUNCTION);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

export default function setup() {
  const before = new Set(runningFunctions());
  if (before.size) {
    console.warn(`Already running before the tests, not counted: ${[...before].join(', ')} (${FUNCTION})`);
  }
  return () => {
    const left = runningFunctions().filter((pid) => !before.has(pid));
    if (!left.length) return;
    for (const pid of left) process.kill(pid, 'SIGKILL');
    throw new Error(
      `The tests left ${left.length} unsubscribe function process(es) running (${FUNCTION}): ` +
        `pids ${left.join(', ')}, now killed.`,
    );
  };
}

import { readFileSync, statSync } from 'node:fs';
import { sharedServerLog } from './shared-server';

/**
 * The bytes of each constant in a logged plan tree (debug_print_plan: `:constvalue 36 [ 123 34 … ]`),
 * as text: a parameter the planner folded in is logged that way, not as written.
 */
function constantsOf(log: string) {
  return [...log.matchAll(/:constvalue \d+ \[([-\d\s]+)\]/g)].map(([, bytes]) =>
    Buffer.from(
      bytes
        .trim()
        .split(/\s+/)
        .map((byte) => Number(byte) & 0xff),
    ).toString('latin1'),
  );
}

/**
 * What this worker's server writes to its log from now on: call the result to read it so far,
 * followed by the text of each plan constant it holds (so an address logged as bytes is found too).
 */
export function serverLogFromNow(): () => string {
  const file = sharedServerLog();
  const start = statSync(file).size;
  return () => {
    const log = readFileSync(file).subarray(start).toString();
    return [log, ...constantsOf(log)].join('\n');
  };
}

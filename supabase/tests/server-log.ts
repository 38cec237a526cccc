import { readFileSync, statSync } from 'node:fs';
import { sharedServerLog } from './shared-server';

/** What this worker's server writes to its log from now on: call the result to read it so far. */
export function serverLogFromNow(): () => string {
  const file = sharedServerLog();
  const start = statSync(file).size;
  return () => readFileSync(file).subarray(start).toString();
}

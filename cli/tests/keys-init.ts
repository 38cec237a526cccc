/** `keys init` as the owner runs it, its private key written to a new file in a temp folder. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Result, waitlist } from './run-cli';

export type Init = { result: Result; keyFile: string; ownerKey: () => string };

export async function keysInit(env?: Record<string, string>): Promise<Init> {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'waitlist-owner-')), 'owner-key.asc');
  const result = await waitlist(['keys', 'init', '--key-file', keyFile], env);
  return { result, keyFile, ownerKey: () => readFileSync(keyFile, 'utf8') };
}

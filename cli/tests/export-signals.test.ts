/**
 * export --output stopped from outside (Ctrl-C, kill, a closed terminal) while its partial file
 * exists: the partial file goes, the earlier file stays, and the process ends by that signal.
 * The owner's key is read from a FIFO nobody writes to, so the export waits with its partial file
 * open for as long as the test needs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keysInit } from './keys-init';
import { useOwnDatabase } from './own-database';
import { MAIN } from './run-cli';
import { seed } from './seed';

const db = useOwnDatabase('cli_export_signals');
beforeAll(async () => {
  await seed(db.owner);
  expect((await keysInit()).result.code).toBe(0);
});

/** Resolves once `dir` holds a file whose name ends in `.partial`. */
async function partialIn(dir: string) {
  const watcher = watch(dir);
  if (readdirSync(dir).some((name) => name.endsWith('.partial'))) return;
  for await (const event of watcher) if (event.filename?.endsWith('.partial')) return;
}

describe('export --output stopped by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} removes the partial file and leaves the earlier one`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'export-signal-'));
      const file = join(dir, 'list.csv');
      writeFileSync(file, 'the export of yesterday\r\n');
      const fifo = join(mkdtempSync(join(tmpdir(), 'owner-key-')), 'key');
      execFileSync('mkfifo', [fifo]);
      const appeared = partialIn(dir);
      const child = spawn(process.execPath, [MAIN, 'export', '--output', file], {
        env: { ...process.env, WAITLIST_OWNER_KEY_FILE: fifo },
        stdio: 'ignore',
      });
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, got) => resolve(got)));
      await appeared;
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(readdirSync(dir)).toEqual(['list.csv']);
      expect(readFileSync(file, 'utf8')).toBe('the export of yesterday\r\n');
    });
  }
});

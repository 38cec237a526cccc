/** export --output: the file appears whole or not at all. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOwnDatabase } from './own-database';
import { MAIN, waitlist } from './run-cli';
import { numbered, seed } from './seed';

const db = useOwnDatabase('cli_export_file');
beforeAll(() => seed(db.owner));

describe('export --output', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'export-'));

  it('writes the file whole, readable by its owner only, and nothing on stdout', async () => {
    const file = join(folder(), 'list.csv');
    const { code, stdout, stderr } = await waitlist(['export', '--output', file]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect(stderr).toContain(`Wrote ${file}.`);
    expect(readFileSync(file, 'utf8')).toBe((await waitlist(['export'])).stdout);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves the earlier file as it was when the disk fills up mid-way, and no partial file', async () => {
    await seed(db.owner, numbered('bulk', 60));
    const dir = folder();
    const file = join(dir, 'list.csv');
    writeFileSync(file, 'the export of yesterday\r\n');
    // A file size limit of one block: the write fails (EFBIG) as on a full disk (ENOSPC).
    const full = spawnSync(
      'sh',
      ['-c', `ulimit -f 1 && exec "${process.execPath}" "${MAIN}" export --output "${file}"`],
      { encoding: 'utf8' },
    );
    expect(full.status).toBe(1);
    expect(full.stderr).toContain(`Could not write ${file}`);
    expect(full.stderr).toContain('it is unchanged');
    expect(readFileSync(file, 'utf8')).toBe('the export of yesterday\r\n');
    expect(readdirSync(dir)).toEqual(['list.csv']);
  });
});

/**
 * The owner's key on a terminal: `keys init` asks for the passphrase twice, then for the copy the
 * owner stored and checks it; `export` asks where the key is (a path, or the key pasted), then its
 * passphrase, and shows neither.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from './own-database';
import { TEST_PASSPHRASE } from './run-cli';
import { seed } from './seed';
import { onTerminal } from './terminal';

const db = useOwnDatabase('cli_keys_terminal');
const keyFile = join(mkdtempSync(join(tmpdir(), 'waitlist-owner-')), 'owner-key.asc');
const QUESTIONS = /(A passphrase for the owner key|Again|key itself pasted|The passphrase of the owner key)[^\n]*:/g;
const PASSPHRASE = { WAITLIST_OWNER_KEY_PASSPHRASE: '', WAITLIST_OWNER_KEY_FILE: '' };

/** The answer to the last question asked: the passphrase, or where the key is. */
const answer = (where: string) => (output: string) =>
  /(key itself pasted)[^\n]*:[^:]*$/.test(output) ? where : TEST_PASSPHRASE;

describe("the owner's key on a terminal", () => {
  it('keys init asks for the passphrase twice, then checks the stored copy', async () => {
    await seed(db.owner, ['Terminal.Ada@Example.com']);
    const { code, output } = await onTerminal(
      ['keys', 'init', '--key-file', keyFile],
      PASSPHRASE,
      QUESTIONS,
      answer(keyFile),
    );
    expect(code, output).toBe(0);
    expect(output.match(QUESTIONS)).toHaveLength(4); // twice for the new key, then the stored copy and its passphrase
    expect(output).toContain('opens the list: 1 hour keys unwrapped');
    expect(output).not.toContain(TEST_PASSPHRASE);
    const { rows } = await db.owner.query('select checked_at from private.key_holders');
    expect(rows[0].checked_at).not.toBeNull();
  });

  it('export takes the key pasted, its lines joined by a note, then its passphrase; shows neither', async () => {
    const joined = readFileSync(keyFile, 'utf8').replace(/\n(?!-----END)/g, ' ');
    const { code, output } = await onTerminal(['export'], PASSPHRASE, QUESTIONS, answer(joined));
    expect(code, output).toBe(0);
    expect(output).toContain('Terminal.Ada@Example.com,');
    expect(output).not.toContain('PRIVATE KEY');
    expect(output).not.toContain(TEST_PASSPHRASE);
  });
});

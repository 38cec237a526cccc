/**
 * The owner's key on a terminal: `keys init` needs no answer (it checks the saved file itself), and
 * `export` asks where the private key file is, never for the key itself.
 */
import { describe, expect, it } from 'vitest';
import { keysInit } from './keys-init';
import { useOwnDatabase } from './own-database';
import { seed } from './seed';
import { onTerminal } from './terminal';

const db = useOwnDatabase('cli_keys_terminal');

describe("the owner's key on a terminal", () => {
  it('export asks for the key file, then gives the list back without showing the key', async () => {
    await seed(db.owner, ['Terminal.Ada@Example.com']);
    const init = await keysInit();
    expect(init.result.code, init.result.stderr).toBe(0);
    const question = "Path of the owner's private key file: ";
    const { code, output } = await onTerminal(['export'], { WAITLIST_OWNER_KEY_FILE: '' }, question, init.keyFile);
    expect(code).toBe(0);
    expect(output).toContain('Terminal.Ada@Example.com,');
    expect(output).not.toContain('PRIVATE KEY');
  });
});

/**
 * The recovery key on a terminal: `keys init` goes on only once the owner typed its end back, and
 * `export` asks for the key without showing it.
 */
import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from './own-database';
import { seed } from './seed';
import { onTerminal } from './terminal';

const db = useOwnDatabase('cli_keys_terminal');
const TYPE_BACK = 'Saved? Type its last 8 characters to go on: ';
const keyIn = (output: string) => /wlrk1_[A-Za-z0-9_-]{48}/.exec(output)?.[0] ?? '';
const sealingStarted = async () =>
  (await db.owner.query('select exists (select from private.seal_chain) as started')).rows[0].started;

describe('the recovery key on a terminal', () => {
  let key = '';

  it('keys init seals nothing while the key is not typed back, and asks three times at most', async () => {
    await seed(db.owner, ['Terminal.Ada@Example.com']);
    const { code, output } = await onTerminal(['keys', 'init'], {}, TYPE_BACK, 'not-it');
    expect(code).toBe(1);
    expect(output.split(TYPE_BACK)).toHaveLength(4);
    expect(output).toContain('Nothing changed; the key above is not used: discard it.');
    expect(await sealingStarted()).toBe(false);
  });

  it('keys init seals the list once the last 8 characters are typed back', async () => {
    const { code, output } = await onTerminal(['keys', 'init'], {}, TYPE_BACK, (shown) => keyIn(shown).slice(-8));
    expect(code).toBe(0);
    key = keyIn(output);
    expect(output).toContain('Sealed 2 stored addresses.'); // the seed's and this file's
    expect(await sealingStarted()).toBe(true);
  });

  it('export asks for the key without showing it, then gives the list back', async () => {
    const question = 'Recovery key (not shown): ';
    const { code, output } = await onTerminal(['export'], { WAITLIST_RECOVERY_KEY: '' }, question, key);
    expect(code).toBe(0);
    expect(output).toContain('Terminal.Ada@Example.com,');
    expect(output).not.toContain(key);
  });
});

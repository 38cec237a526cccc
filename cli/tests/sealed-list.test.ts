/**
 * The sealed list as the owner meets it: `keys init` writes the private key once to a new file
 * only the owner may read and seals what is stored; signups go on being sealed, each hour with a
 * key of its own; `export` with the owner's key gives back every address byte for byte, and
 * without it prints none.
 */
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyPair, ownerKeyFile } from '../../supabase/harness/sealed';
import { connect } from '../../supabase/harness/database';
import { keysInit } from './keys-init';
import { asSuperuser, countRows, plaintextRows, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { exportedAddresses, seed, seededAddresses } from './seed';
import { CLEAR_KEYS, openWith, sealedRows, setSealClock } from '../../supabase/tests/sealing';

const db = useOwnDatabase('cli_sealed');

/** What a dump or a copy of the data directory taken now opens: every seal any clear hour key verifies. */
async function openedByACopy() {
  const { rows: keys } = await db.owner.query<{ clear_key: Buffer }>(CLEAR_KEYS);
  const rows = await sealedRows(db.owner);
  return rows.flatMap((row) => keys.flatMap(({ clear_key }) => openWith(clear_key, row) ?? []));
}

describe('a sealed list', () => {
  let keyFile = '';
  // Every form the list accepts, kept as typed: the shared examples, and letter cases and
  // Unicode forms (NFD, a title-case digraph, a 4-byte character) that private.canonical_address folds.
  const addresses = [
    ...new Set([
      ...seededAddresses(),
      'Zoe\u0301.NFD@Example.com',
      'ÅSA@EXAMPLE.COM',
      '\u01c5@example.com',
      '😀@example.com',
    ]),
  ];
  const firstHalf = addresses.slice(0, addresses.length / 2);
  const secondHalf = addresses.slice(addresses.length / 2);

  it('keys init refuses without a file for the private key, and changes nothing', async () => {
    const refused = await waitlist(['keys', 'init']);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('keys init --key-file <file>');
  });

  it('count says, before keys init, that the addresses are stored as typed', async () => {
    await seed(db.owner, firstHalf);
    const { code, stdout, stderr } = await waitlist(['count']);
    expect(code).toBe(0);
    expect(stderr).toBe(
      `Warning: Not sealed: the ${stdout.trim()} signups on the list are stored as typed, readable by whoever ` +
        'takes the database (npm run waitlist -- keys init).\n',
    );
  });

  it('keys init writes the private key to a new 0600 file, prints no key, and seals every stored address', async () => {
    expect(await plaintextRows(db)).toBeGreaterThan(0);
    // A signup under way when keys init starts: keys init waits for it, then seals it too.
    const visitor = await connect(db.info, 'postgres');
    await visitor.query('begin');
    await visitor.query(`insert into public.waiting_list (email) values ('during-init@example.com')`);
    const running = keysInit();
    await expect.poll(() => countRows(db.owner, 'pg_locks where not granted'), { timeout: 60_000 }).toBe(1);
    await visitor.query('commit');
    await visitor.end();
    const init = await running;
    expect(init.result.code, init.result.stderr).toBe(0);
    expect(init.result.stdout).toBe('');
    expect(init.ownerKey()).toMatch(/^-----BEGIN PGP PRIVATE KEY BLOCK-----\n/);
    expect(statSync(init.keyFile).mode & 0o777).toBe(0o600);
    keyFile = init.keyFile;
    expect(await plaintextRows(db)).toBe(0);
    expect(await countRows(db.owner, 'private.key_holders')).toBe(1);

    const again = await keysInit();
    expect(again.result).toMatchObject({ code: 2, stdout: '' });
    expect(again.result.stderr).toContain('sealed already');
    expect(existsSync(again.keyFile)).toBe(false); // refused before it writes any key file
    const taken = await waitlist(['keys', 'init', '--key-file', keyFile]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('sealed already');
  });

  it('a copy taken in the hour of keys init opens none of the rows before it, only the signups after', async () => {
    expect(await countRows(db.owner, 'private.signup_addresses where seal is not null')).toBeGreaterThan(0);
    expect(await openedByACopy()).toEqual([]);
    await seed(db.owner, ['after-init@example.com']); // sealed with the database's key of this hour
    expect(await openedByACopy()).toEqual(['after-init@example.com']);
  });

  it('seals every later signup, a key per hour; export opens every hour with the key file, byte for byte', async () => {
    try {
      for (const [i, address] of secondHalf.entries()) {
        await setSealClock(db.owner, new Date(Date.UTC(2031, 2, 1, i)).toISOString());
        await seed(db.owner, [address]);
      }
    } finally {
      await setSealClock(db.owner, null);
    }
    expect(await plaintextRows(db)).toBe(0);
    const { rows } = await db.owner.query(
      `select count(distinct k.hour)::int as hours
       from private.signup_addresses a join private.hour_keys k on k.id = a.hour_key_id`,
    );
    expect(rows[0].hours).toBe(secondHalf.length + 1); // keys init's hour, and one per signup above

    const { code, stdout } = await waitlist(['export', '--all'], { WAITLIST_OWNER_KEY_FILE: keyFile });
    expect(code).toBe(0);
    expect(exportedAddresses(stdout).sort()).toEqual(
      ['taken@example.com', 'during-init@example.com', 'after-init@example.com', ...firstHalf, ...secondHalf].sort(),
    );
    expect(stdout).toContain('\r\n"a,comma@example.com",');
  });

  it('export takes the key from a password manager’s command too', async () => {
    const { code, stdout } = await waitlist(['export'], {
      WAITLIST_OWNER_KEY_FILE: '',
      WAITLIST_OWNER_KEY_COMMAND: `cat '${keyFile}'`,
    });
    expect(code).toBe(0);
    expect(exportedAddresses(stdout)).toContain(secondHalf[0]);
  });

  it('export without the key, or with another, says so, exits 2 and prints no address', async () => {
    const missing = await waitlist(['export'], { WAITLIST_OWNER_KEY_FILE: '' });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain("needs a holder's private key. Set WAITLIST_OWNER_KEY_FILE");

    const garbled = ownerKeyFile('not a key');
    const notAKey = await waitlist(['export'], { WAITLIST_OWNER_KEY_FILE: garbled });
    expect(notAKey).toMatchObject({ code: 2, stdout: '' });
    expect(notAKey.stderr).toContain('does not hold a private key');

    const another = ownerKeyFile((await keyPair()).privateKey);
    const wrong = await waitlist(['export'], { WAITLIST_OWNER_KEY_FILE: another });
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toContain('does not open this list');
  });

  it('seals rows that arrived with triggers off (a data-only restore) at the next count, then names none', async () => {
    await asSuperuser(
      db,
      `set session_replication_role = replica; insert into public.waiting_list (email) values ('Restored@Example.com')`,
    );
    expect(await plaintextRows(db)).toBe(1);
    expect((await waitlist(['count'])).stderr).toBe('');
    expect(await plaintextRows(db)).toBe(0);
    const { stdout } = await waitlist(['export'], { WAITLIST_OWNER_KEY_FILE: keyFile });
    expect(exportedAddresses(stdout)).toContain('Restored@Example.com');
  });

  it('count names a past hour’s key still held in clear (its minute job missing or failing)', async () => {
    // This file's database has no pg_cron: the minute job runs only where the test calls it.
    try {
      await setSealClock(db.owner, '2031-03-02T10:30:00Z');
      await seed(db.owner, ['at-ten@example.com']); // makes the key of 10:00
      await setSealClock(db.owner, '2031-03-02T11:30:00Z');
      const { code, stderr } = await waitlist(['count', '--json']);
      expect(code).toBe(0);
      expect(stderr).toContain("Warning: A past hour's key is still held in clear");
      await db.owner.query('select private.retire_hour_keys()');
      expect((await waitlist(['count'])).stderr).toBe('');
    } finally {
      await setSealClock(db.owner, null);
    }
  });
});

/**
 * The sealed list as the owner meets it: `keys init` prints the recovery key once and seals what
 * is stored; signups go on being sealed across ratchet steps; `export` with the key gives back
 * every address byte for byte, and without it prints none.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { SUPERUSER } from '../../supabase/harness/cluster';
import { connect } from '../../supabase/harness/database';
import { formatRecoveryKey, newRecoveryKey } from '../seal/recovery-key';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { seed, seededAddresses } from './seed';

const db = useOwnDatabase('cli_sealed');
const KEY_LINE = /^wlrk1_[A-Za-z0-9_-]{48}\n$/;

const exported = (stdout: string) =>
  parse(stdout, { record_delimiter: '\r\n', from_line: 2 }).map((record: string[]) => record[0]) as string[];

async function plaintextRows(): Promise<number> {
  const { rows } = await db.owner.query('select count(*)::int as n from public.waiting_list where email is not null');
  return rows[0].n;
}

describe('a sealed list', () => {
  let key = '';
  // Every form the list accepts, kept as typed: the shared examples, and letter cases and
  // Unicode forms (NFD, a title-case digraph, a 4-byte character) that private.email_key folds.
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

  it('keys init refuses off a terminal without --yes, and prints no key', async () => {
    const refused = await waitlist(['keys', 'init']);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('add --yes');
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

  it('keys init --yes prints the recovery key once on stdout and seals every stored address', async () => {
    expect(await plaintextRows()).toBeGreaterThan(0);
    const { code, stdout, stderr } = await waitlist(['keys', 'init', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toMatch(KEY_LINE);
    expect(stderr).toContain('printed this once');
    key = stdout.trim();
    expect(await plaintextRows()).toBe(0);
    const again = await waitlist(['keys', 'init', '--yes']);
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr).toContain('sealed already');
  });

  it('seals every later signup; export opens every step with the key, byte for byte', async () => {
    for (const [i, address] of secondHalf.entries()) {
      await seed(db.owner, [address]);
      if (i % 3 === 0) await db.owner.query('select private.advance_seal_key()');
    }
    expect(await plaintextRows()).toBe(0);
    const { rows } = await db.owner.query('select count(distinct step)::int as steps from private.waiting_list_keys');
    expect(rows[0].steps).toBeGreaterThan(3);

    const { code, stdout } = await waitlist(['export', '--all'], { WAITLIST_RECOVERY_KEY: key });
    expect(code).toBe(0);
    expect(exported(stdout).sort()).toEqual(['taken@example.com', ...firstHalf, ...secondHalf].sort());
    expect(stdout).toContain('\r\n"a,comma@example.com",');
  });

  it('export without the key says so, exits 2 and prints no address', async () => {
    const missing = await waitlist(['export'], { WAITLIST_RECOVERY_KEY: '' });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('needs the recovery key. Set WAITLIST_RECOVERY_KEY');

    const typo = await waitlist(['export'], {
      WAITLIST_RECOVERY_KEY: key.slice(0, -2) + (key.endsWith('AA') ? 'AB' : 'AA'),
    });
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toContain('checksum');

    const another = formatRecoveryKey(newRecoveryKey());
    const wrong = await waitlist(['export'], { WAITLIST_RECOVERY_KEY: another });
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toContain('does not open this list');
  });

  it('seals rows that arrived with triggers off (a data-only restore) at the next count, naming nothing after', async () => {
    const admin = await connect({ ...inject('database'), database: 'cli_sealed' }, SUPERUSER);
    try {
      await admin.query(`set session_replication_role = replica`);
      await admin.query(`insert into public.waiting_list (email) values ('Restored@Example.com')`);
    } finally {
      await admin.end();
    }
    expect(await plaintextRows()).toBe(1);
    expect((await waitlist(['count'])).stderr).toBe('');
    expect(await plaintextRows()).toBe(0);
    const { stdout } = await waitlist(['export'], { WAITLIST_RECOVERY_KEY: key });
    expect(exported(stdout)).toContain('Restored@Example.com');
  });

  it('keys rotate seals everything again under a new key; the old key opens nothing', async () => {
    const before = exported((await waitlist(['export', '--all'], { WAITLIST_RECOVERY_KEY: key })).stdout);
    const without = await waitlist(['keys', 'rotate', '--yes'], { WAITLIST_RECOVERY_KEY: '' });
    expect(without).toMatchObject({ code: 2, stdout: '' });

    const rotated = await waitlist(['keys', 'rotate', '--yes'], { WAITLIST_RECOVERY_KEY: key });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(KEY_LINE);
    const fresh = rotated.stdout.trim();
    expect(exported((await waitlist(['export', '--all'], { WAITLIST_RECOVERY_KEY: fresh })).stdout)).toEqual(before);
    const old = await waitlist(['export'], { WAITLIST_RECOVERY_KEY: key });
    expect(old).toMatchObject({ code: 2, stdout: '' });
    expect(old.stderr).toContain('does not open this list');
    key = fresh;
  });

  it('count names a ratchet that stopped moving (its job missing or failing); signups are still sealed', async () => {
    await db.owner.query(`update private.seal_key set advanced_at = now() - interval '3 hours'`);
    try {
      await seed(db.owner, ['after-the-stall@example.com']);
      const { code, stderr } = await waitlist(['count', '--json']);
      expect(code).toBe(0);
      expect(stderr).toContain('Warning: The sealing key has not moved for 3 h (step ');
      expect(await plaintextRows()).toBe(0);
    } finally {
      await db.owner.query('update private.seal_key set advanced_at = now()');
    }
    expect((await waitlist(['count'])).stderr).toBe('');
  });
});

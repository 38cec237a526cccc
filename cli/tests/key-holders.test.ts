/**
 * Launch day without fear: the owner key takes a passphrase, `keys check` proves a stored copy opens
 * the list (and health asks until one did, and again after 90 days), a note that joined the key's
 * lines does not lose it, and a second holder opens the whole list, until removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { decrypt, decryptKey, generateKey, readKey, readMessage, readPrivateKey } from 'openpgp';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { keyPair, ownerKeyFile } from '../../supabase/harness/sealed';
import { checkKeyCopies } from '../commands/health/sealing';
import { MIGRATIONS, migrationPath } from '../database/migrations';
import { keysInit, type Init } from './keys-init';
import { countRows, useOwnDatabase } from './own-database';
import { TEST_PASSPHRASE, waitlist } from './run-cli';
import { exportedAddresses } from './seed';

const db = useOwnDatabase('cli_key_holders');
const SECOND = 'the second holder passphrase';
let first: Init;
let second: { keyFile: string; publicFile: string; keyId: string; login: string };

const signup = (email: string) => db.owner.query('insert into public.waiting_list (email) values ($1)', [email]);
const exportWith = (keyFile: string, passphrase = TEST_PASSPHRASE) =>
  waitlist(['export'], { WAITLIST_OWNER_KEY_FILE: keyFile, WAITLIST_OWNER_KEY_PASSPHRASE: passphrase });
const check = (keyFile: string, passphrase = TEST_PASSPHRASE) =>
  waitlist(['keys', 'check', '--key-file', keyFile], { WAITLIST_OWNER_KEY_PASSPHRASE: passphrase });
/** `keys add` of the public key in `file`, run by the first holder. */
const addKey = (file: string) =>
  waitlist(['keys', 'add', '--public-key', file], { WAITLIST_OWNER_KEY_FILE: first.keyFile });
/** The lines `keys holders` prints, one a holder. */
const holders = async () => (await waitlist(['keys', 'holders'])).stdout.trim().split('\n');
/** A login role's bounds: its connection limit and settings. */
const boundsOf = async (role: string) =>
  (await db.owner.query('select rolconnlimit, rolconfig from pg_roles where rolname = $1', [role])).rows[0];

describe('the owner key', () => {
  it('keys init refuses to make a key without a passphrase off a terminal, or with a short one', async () => {
    const none = await keysInit({ WAITLIST_OWNER_KEY_PASSPHRASE: '' });
    expect(none.result.code).toBe(2);
    expect(none.result.stderr).toContain('set WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND to a command that prints it');
    const short = await keysInit({ WAITLIST_OWNER_KEY_PASSPHRASE: 'eleven char' });
    expect(short.result.stderr).toContain('The passphrase is under 12 characters.');
    expect(await countRows(db.owner, 'private.key_holders')).toBe(0);
  });

  it('is protected by its passphrase: a wrong one refused, the right one (from a command) opens the list', async () => {
    await signup('first@example.com');
    first = await keysInit();
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(first.result.stderr).toContain('Left to do: store the key, then prove the stored copy opens the list');
    expect((await readPrivateKey({ armoredKey: first.ownerKey() })).isDecrypted()).toBe(false);

    const wrong = await exportWith(first.keyFile, 'not the passphrase at all');
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toContain('That passphrase does not open the owner key');
    // The password manager's command sees the shell's environment, not the project's secrets.
    const seen = join(dirname(first.keyFile), 'seen-by-the-command');
    const right = await waitlist(['export'], {
      WAITLIST_OWNER_KEY_FILE: first.keyFile,
      WAITLIST_OWNER_KEY_PASSPHRASE: '',
      WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND: `env > ${seen}; printf '%s\\n' '${TEST_PASSPHRASE}'`,
      SMTP_URL: 'smtp://user:mail-password@127.0.0.1',
      SUPABASE_ACCESS_TOKEN: 'sbp_token',
      PASSWORD_STORE_DIR: '/kept',
    });
    expect(right.code, right.stderr).toBe(0);
    expect(exportedAddresses(right.stdout)).toContain('first@example.com');
    const names = readFileSync(seen, 'utf8')
      .split('\n')
      .map((line) => line.split('=')[0]);
    expect(names).toContain('PASSWORD_STORE_DIR');
    expect(names.filter((name) => ['DATABASE_URL', 'SMTP_URL', 'SUPABASE_ACCESS_TOKEN'].includes(name))).toEqual([]);
  });

  it('a failing key or passphrase command is named by its variable and exit status, never by its text', async () => {
    const secret = 'words-only-the-command-knows';
    const failing = `echo ${secret}; echo ${secret} >&2; exit 3`;
    const commands = {
      WAITLIST_OWNER_KEY_COMMAND: { WAITLIST_OWNER_KEY_FILE: '' },
      WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND: {
        WAITLIST_OWNER_KEY_FILE: first.keyFile,
        WAITLIST_OWNER_KEY_PASSPHRASE: '',
      },
    };
    for (const [variable, env] of Object.entries(commands)) {
      const { code, stdout, stderr } = await waitlist(['export'], { ...env, [variable]: failing });
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toContain(`${variable} failed (exit status 3)`);
      expect(stderr).not.toContain(secret);
      expect(stderr).not.toContain('echo');
    }
  });

  it('keys check proves a stored copy opens the list, recorded; health asks until then and after 90 days', async () => {
    expect(await checkKeyCopies(db.owner)).toMatchObject({ outcome: 'setup', says: expect.stringContaining('never') });
    const checked = await check(first.keyFile);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^This copy of key [0-9A-F]{16} opens the list: 1 hour keys unwrapped/);
    expect(checked.stdout + checked.stderr).not.toContain('@');
    expect(await checkKeyCopies(db.owner)).toMatchObject({ outcome: 'ok' });
    await db.owner.query(`update private.key_holders set checked_at = now() - interval '91 days'`);
    expect((await checkKeyCopies(db.owner)).says).toContain('91 days ago');
    expect((await check(first.keyFile)).code).toBe(0);
  });

  it("keys check fails on another list's key, and on a copy cut short", async () => {
    const another = await check(ownerKeyFile((await keyPair()).privateKey));
    expect(another.code).toBe(2);
    expect(another.stderr).toContain('That owner key does not open this list');
    const text = first.ownerKey();
    const cut = await check(ownerKeyFile(text.slice(0, 900) + text.slice(1000)));
    expect(cut.code).toBe(2);
    expect(cut.stderr).toContain('Give the key whole, from -----BEGIN PGP PRIVATE KEY BLOCK-----');
  });

  it('a key whose line breaks a note joined, removed or doubled still opens the list', async () => {
    const text = first.ownerKey();
    for (const mangled of [text.replaceAll('\n', ' '), text.replaceAll('\n', ''), text.replaceAll('\n', '\n\n')]) {
      const result = await check(ownerKeyFile(mangled));
      expect(result.code, result.stderr).toBe(0);
    }
  });
});

describe('a second holder', () => {
  it('is refused as a private key, or as a key pgcrypto cannot wrap to', async () => {
    const secret = await addKey(first.keyFile);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('holds a private key. Ask the holder for the public key only');
    const ecc = await generateKey({ type: 'ecc', userIDs: [{ name: 'by hand' }], format: 'armored' });
    const curve = await addKey(ownerKeyFile(ecc.publicKey));
    expect(curve.stderr).toContain('has no RSA encryption key of 3072 bits or more');
  });

  it('made with GnuPG on their own machine, opens the whole list, before and after it was added', async () => {
    await signup('before-add@example.com');
    const home = mkdtempSync(join(tmpdir(), 'waitlist-gnupg-'));
    // gpg starts an agent for this home: stopped after the test, which would outlive it.
    onTestFinished(() => void execFileSync('gpgconf', ['--homedir', home, '--kill', 'gpg-agent']));
    const gpg = (...args: string[]) =>
      execFileSync('gpg', [
        '--homedir',
        home,
        '--batch',
        '--pinentry-mode',
        'loopback',
        '--passphrase',
        SECOND,
        ...args,
      ]);
    gpg('--quick-generate-key', 'Second Holder <second@example.com>', 'rsa3072', 'sign', 'never');
    const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg('--with-colons', '--list-keys').toString())![1];
    gpg('--quick-add-key', fingerprint, 'rsa3072', 'encr', 'never');
    const publicFile = ownerKeyFile(gpg('--export', '--armor').toString());
    second = {
      keyFile: ownerKeyFile(gpg('--export-secret-keys', '--armor').toString()),
      publicFile,
      keyId: '',
      login: '',
    };

    const added = await addKey(publicFile);
    expect(added.code, added.stderr).toBe(0);
    second.keyId = /^Key ([0-9A-F]{16}) now holds the list/m.exec(added.stderr)![1];
    const loginFile = join(dirname(publicFile), `key-check-${second.keyId}.asc`);
    expect(added.stderr).toContain(`Send its holder ${loginFile}`);
    expect(statSync(loginFile).mode & 0o777).toBe(0o600);
    // The same key exported again with one more user ID (other bytes): the holder already, nothing left to wrap.
    gpg('--quick-add-uid', fingerprint, 'Second Again <again@example.com>');
    const again = await addKey(ownerKeyFile(gpg('--export', '--armor').toString()));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Key ${second.keyId} was a holder already`);
    expect(again.stderr).toContain('0 hour keys wrapped to it');
    // The login given again, beside the file added: only their key reads it. Its user and password, on this
    // server's socket (the URL keeps the host, not ?host=).
    const given = /Send its holder (\S+), their/.exec(again.stderr)![1];
    const { username, password } = new URL(gpg('--quiet', '--decrypt', given).toString());
    second.login = Object.assign(new URL(db.url), { username, password }).href;
    await signup('after-add@example.com');
    const all = exportedAddresses((await exportWith(first.keyFile)).stdout).sort();
    expect(all).toEqual(
      expect.arrayContaining(['after-add@example.com', 'before-add@example.com', 'first@example.com']),
    );
    expect(exportedAddresses((await exportWith(second.keyFile, SECOND)).stdout).sort()).toEqual(all);
    expect(await holders()).toHaveLength(2);
  }, 90_000); // a GnuPG key pair made, and five runs of the command

  it('proves their copy with their own login: it changes nothing of the list and reads no clear hour key', async () => {
    expect(new URL(second.login).username).toMatch(/^waitlist_holder_\d+$/); // not the owner's role
    const checked = await waitlist(['keys', 'check', '--key-file', second.keyFile], {
      DATABASE_URL: second.login,
      WAITLIST_OWNER_KEY_PASSPHRASE: SECOND,
    });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain(`This copy of key ${second.keyId} opens the list`);
    const { rows } = await db.owner.query<{ id: string; checked: boolean }>(
      `select id::text, checked_at > now() - interval '1 minute' as checked from private.key_holders order by id`,
    );
    expect(rows.at(-1)!.checked).toBe(true);
    const holder = new pg.Client({ connectionString: second.login });
    await holder.connect();
    try {
      for (const sql of [
        "insert into public.waiting_list (email) values ('planted@example.com')",
        'update public.waiting_list set email = null',
        'delete from private.signup_addresses',
        'update private.signup_addresses set seal = null',
        'delete from private.wrapped_hour_keys',
        'insert into private.key_holders (public_key) select public_key from private.key_holders',
        'update private.key_holders set checked_at = now()',
        'select clear_key from private.hour_key_0',
        'select address_hash from private.signup_addresses',
        'select seal from private.signup_addresses', // the list's seals: only the first of each hour key
      ]) {
        await expect(holder.query(sql), sql).rejects.toThrow(/permission denied/);
      }
      const other = await holder.query('select private.record_key_check($1) as done', [rows[0].id]);
      expect(other.rows[0].done).toBeNull(); // the owner's check is not theirs to record
    } finally {
      await holder.end();
    }
  });

  it('once removed (though added twice), opens nothing sealed after; the other holder opens everything', async () => {
    // Whatever the holder made with its login (default privileges, a temporary table in a session
    // kept open) does not stop its removal, nor keep it a holder of the hour keys made after.
    const login = new URL(second.login).username;
    const bounds = await boundsOf(login);
    expect(bounds.rolconnlimit).toBe(2);
    expect(bounds.rolconfig).toEqual(expect.arrayContaining(['statement_timeout=60s', 'idle_session_timeout=10min']));
    const holderSession = new pg.Client({ connectionString: second.login });
    await holderSession.connect();
    holderSession.on('error', () => {}); // ended by the removal
    await holderSession.query('alter default privileges grant select on tables to public');
    await holderSession.query('create temporary table kept (x int)');
    const { rows: kept } = await db.owner.query<{ id: string }>(
      `select w.hour_key_id::text as id from private.wrapped_hour_keys w
       join private.key_holders h on h.id = w.holder_id where extensions.pgp_key_id(h.public_key) = $1`,
      [second.keyId],
    );
    const removed = await waitlist(['keys', 'remove', second.keyId, '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`Removed key ${second.keyId}, however it was exported`);
    await expect(new pg.Client({ connectionString: second.login }).connect()).rejects.toThrow(); // its login gone
    await expect(holderSession.query('select 1')).rejects.toThrow(); // its session ended
    expect(await countRows(db.owner, 'pg_roles where rolname = $1', [login])).toBe(0);
    await signup('after-remove@example.com');
    const { rows } = await db.owner.query<{ hour_key_id: string }>(
      `select hour_key_id::text from private.signup_addresses a join public.waiting_list w using (id)
       where a.address_hash = private.address_hash('after-remove@example.com')`,
    );
    expect(kept.map((row) => row.id)).not.toContain(rows[0].hour_key_id);
    // Every wrapped copy of its hour key: none opens with the removed holder's key.
    const secondKey = await decryptKey({
      privateKey: await readPrivateKey({ armoredKey: readFileSync(second.keyFile, 'utf8') }),
      passphrase: SECOND,
    });
    const { rows: copies } = await db.owner.query<{ wrapped: Buffer }>(
      'select wrapped from private.wrapped_hour_keys where hour_key_id = $1',
      [rows[0].hour_key_id],
    );
    expect(copies.length).toBeGreaterThan(0);
    for (const { wrapped } of copies) {
      const message = await readMessage({ binaryMessage: wrapped });
      await expect(decrypt({ message, decryptionKeys: secondKey })).rejects.toThrow();
    }
    const refused = await exportWith(second.keyFile, SECOND);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(exportedAddresses((await exportWith(first.keyFile)).stdout)).toContain('after-remove@example.com');
    const last = await waitlist(['keys', 'remove', (await holders())[0].split(' ')[1], '--yes']);
    expect(last.stderr).toContain('That is the only holder');
  });
});

describe('holders at the edges', () => {
  it('a key larger than an index entry (many user IDs), no passphrase: added, checked with a warning', async () => {
    const userIDs = Array.from({ length: 8 }, (_, i) => ({ name: `Holder ${i}`, email: `holder${i}@example.com` }));
    const big = await generateKey({ type: 'rsa', rsaBits: 3072, userIDs, format: 'armored' });
    expect((await readKey({ armoredKey: big.publicKey })).write().length).toBeGreaterThan(2704);
    const added = await addKey(ownerKeyFile(big.publicKey));
    expect(added.code, added.stderr).toBe(0);
    const checked = await check(ownerKeyFile(big.privateKey));
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toContain('Warning: this copy has no passphrase: whoever reads it opens the list.');
  });

  it('keys remove refuses to leave only a holder who lacks hour keys (a keys add that stopped)', async () => {
    const listed = await holders();
    expect(listed).toHaveLength(2);
    const [firstId, firstKey] = listed[0].split(' ');
    const [otherId] = listed[1].split(' ');
    await db.owner.query(
      `delete from private.wrapped_hour_keys
       where holder_id = $1 and hour_key_id = (select min(id) from private.hour_keys)`,
      [otherId],
    );
    const refused = await waitlist(['keys', 'remove', firstKey, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Another holder lacks hour keys (a keys add that stopped): rerun it first.');
    const { rows } = await db.owner.query('select id::text from private.key_holders order by id');
    expect(rows.map((row) => row.id)).toEqual([firstId, otherId]);
  });

  it('a holder login made before logins were bounded is bounded by the migration that bounds them', async () => {
    const older = 'waitlist_holder_900001'; // roles belong to the cluster: a number no test file's holder reaches
    await db.owner.query(`create role ${older} login in role waitlist_key_check`);
    onTestFinished(() => db.owner.query(`drop role ${older}`).then(() => undefined));
    const migration = MIGRATIONS.find((file) => file.endsWith('_holder_login_bounds.sql'))!;
    await db.owner.query(readFileSync(migrationPath(migration), 'utf8'));
    const bounds = await boundsOf(older);
    expect(bounds.rolconnlimit).toBe(2);
    expect(bounds.rolconfig).toEqual(expect.arrayContaining(['idle_in_transaction_session_timeout=60s']));
  });
});

/**
 * A list sealed by the recovery-key ratchet keeps being sealed by it until the owner runs
 * `keys upgrade` with the recovery key; that re-seals every row under a key wrapped to the
 * owner's new key and deletes the chain, with the list in use: a signup that began before the
 * command and ends during it is sealed again too.
 */
import { parse } from 'csv-parse/sync';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import { describe, expect, it } from 'vitest';
import { connect } from '../../supabase/harness/database';
import { Ratchet } from '../seal/ratchet';
import { formatRecoveryKey, newRecoveryKey } from '../seal/recovery-key';
import { resealList } from '../seal/reseal';
import { useOwnDatabase } from './own-database';
import { startCli, waitlist } from './run-cli';
import { seed } from './seed';

const db = useOwnDatabase('cli_keys_upgrade');
const exported = (stdout: string) =>
  parse(stdout, { record_delimiter: '\r\n', from_line: 2 }).map((record: string[]) => record[0]) as string[];
const count = async (sql: string) => (await db.owner.query<{ n: number }>(sql)).rows[0].n;

/** Resolves once a session waits for a SHARE lock on the list (the command waiting for in-flight signups). */
async function waitingForSignups(owner: Client): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await owner.query(
      `select exists (select from pg_locks where not granted and mode = 'ShareLock'
                      and relation = 'public.waiting_list'::regclass) as waiting`,
    );
    if (rows[0].waiting) return;
    if (Date.now() > deadline) throw new Error('keys upgrade never waited for the open signup');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('keys upgrade, from the ratchet to hourly keys', () => {
  it('moves a list in use, a signup arriving during it included; export then opens every address', async () => {
    await seed(db.owner, ['Before.Ratchet@Example.com']);
    const recovery = newRecoveryKey();
    await resealList(db.owner, null, new Ratchet(recovery)); // as keys init sealed before hourly keys
    const env = { WAITLIST_RECOVERY_KEY: formatRecoveryKey(recovery) };
    await seed(db.owner, ['Step1.Ada@Example.COM']);
    await db.owner.query('select private.advance_seal_key()');
    await seed(db.owner, ['zoe\u0301@example.com']);
    expect(await count('select count(*)::int as n from private.waiting_list_keys where step is not null')).toBe(
      await count('select count(*)::int as n from public.waiting_list'),
    );

    const signup = await connect(db.info, 'postgres'); // a signup's transaction, held open
    const keyFile = join(mkdtempSync(join(tmpdir(), 'waitlist-owner-')), 'owner-key.asc');
    try {
      await signup.query('begin');
      // Through the same triggers as the API's insert: sealed by the ratchet, not committed yet.
      await signup.query(`insert into public.waiting_list (email) values ('In.Flight@Example.com')`);
      const upgrade = startCli(['keys', 'upgrade', '--key-file', keyFile], env);
      await waitingForSignups(db.owner);
      await signup.query('commit');
      const done = await upgrade.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      await signup.end();
    }
    expect(await count('select count(*)::int as n from private.waiting_list_keys where step is not null')).toBe(0);
    expect(await count('select count(*)::int as n from private.waiting_list_keys where key_id is null')).toBe(0);
    expect(await count('select count(*)::int as n from private.seal_key')).toBe(0);
    expect(await count('select count(*)::int as n from private.seal_chain')).toBe(0);

    await seed(db.owner, ['After.Upgrade@Example.com']);
    const { code, stdout } = await waitlist(['export', '--all'], { WAITLIST_OWNER_KEY_FILE: keyFile });
    expect(code).toBe(0);
    expect(exported(stdout)).toEqual(
      expect.arrayContaining([
        'Before.Ratchet@Example.com',
        'Step1.Ada@Example.COM',
        'zoe\u0301@example.com',
        'In.Flight@Example.com',
        'After.Upgrade@Example.com',
      ]),
    );
    const old = await waitlist(['export'], { ...env, WAITLIST_OWNER_KEY_FILE: '' });
    expect(old).toMatchObject({ code: 2, stdout: '' });
  });
});

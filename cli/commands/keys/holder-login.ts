/**
 * A second holder's login for `keys check`: waitlist_holder_<id>, a member of waitlist_key_check (reads what the check
 * reads, records its own check, changes nothing of the list). Its connection string is written encrypted to the
 * holder's own key, so only they read it; the server gets a SCRAM verifier.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { inTransaction } from '../../connect/queries.ts';
import { newLoginPassword, roleUrl } from '../../database/roles.ts';

const login = (holderId: string) => `waitlist_holder_${BigInt(holderId)}`; // digits only: safe in a statement

/** Gives the holder a login with a new password; returns the file in `folder` holding its URL, for their key only. */
export async function giveLogin(
  db: pg.Client,
  holder: { id: string; keyId: string; publicKey: Buffer },
  folder: string,
) {
  const role = login(holder.id);
  const password = await inTransaction(db, async () => {
    const made = await newLoginPassword(db, role, 'waitlist_key_check');
    await db.query('select private.bound_holder_login($1)', [role]);
    return made;
  });
  const { createMessage, encrypt, readKey } = await import('openpgp');
  const sealed = await encrypt({
    message: await createMessage({ text: roleUrl(role, password) }),
    encryptionKeys: await readKey({ binaryKey: holder.publicKey }),
  });
  const file = join(folder, `key-check-${holder.keyId}.asc`);
  await writeFile(file, sealed, { mode: 0o600 });
  return file;
}

/** The removed holder's login can connect no more; in the removal's own transaction, so it holds whatever follows. */
export async function lockLogin(db: pg.Client, holderId: string) {
  const role = login(holderId);
  if ((await db.query('select from pg_roles where rolname = $1', [role])).rowCount) {
    await db.query(`alter role ${role} nologin connection limit 0`);
  }
}

/**
 * After the removal: the login's sessions ended, what it made dropped (default privileges, a temporary table), then
 * the role. The owner's role becomes a member first, as Supabase asks before DROP OWNED (and so may end its
 * sessions). Returns why the role stays, if it does: it can connect no more (lockLogin), so nothing is at risk.
 */
export async function dropLogin(db: pg.Client, holderId: string): Promise<string | undefined> {
  const role = login(holderId);
  if (!(await db.query('select from pg_roles where rolname = $1', [role])).rowCount) {
    return undefined;
  }
  try {
    await db.query(`grant ${role} to current_user`);
    await db.query('select pg_terminate_backend(pid, 10000) from pg_stat_activity where usename = $1', [role]);
    await db.query(`drop owned by ${role}`);
    await db.query(`drop role ${role}`);
    return undefined;
  } catch (error) {
    return `${(error as Error).message}. In the SQL editor: drop owned by ${role}; drop role ${role};`;
  }
}

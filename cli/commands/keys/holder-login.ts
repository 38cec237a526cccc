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
  const password = await inTransaction(db, () => newLoginPassword(db, role, 'waitlist_key_check'));
  const { createMessage, encrypt, readKey } = await import('openpgp');
  const sealed = await encrypt({
    message: await createMessage({ text: roleUrl(role, password) }),
    encryptionKeys: await readKey({ binaryKey: holder.publicKey }),
  });
  const file = join(folder, `key-check-${holder.keyId}.asc`);
  await writeFile(file, sealed, { mode: 0o600 });
  return file;
}

/** The removed holder's login goes with it. */
export const dropLogin = (db: pg.Client, holderId: string) => db.query(`drop role if exists ${login(holderId)}`);

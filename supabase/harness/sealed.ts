/**
 * Seals a test or benchmark database as `waitlist keys init` does (the same code, in-process),
 * with a fresh owner key pair: its signups then take the sealed path, as they do in production.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import { installOwnerKey } from '../../cli/seal/install';
import { Opener } from '../../cli/seal/open';
import { newOwnerKeyPair, parseOwnerKey } from '../../cli/seal/owner-key';
import { addressOf, type StoredAddress } from '../../cli/seal/sealed-list';

/** Returns the owner's private key, armored, as `keys init` writes it to its file. */
export async function sealList(owner: Client): Promise<string> {
  const pair = await newOwnerKeyPair();
  await installOwnerKey(owner, pair.publicKey, await parseOwnerKey(pair.privateKey, 'the new key'));
  return pair.privateKey;
}

/** The private key in a new file only this user may read (what WAITLIST_OWNER_KEY_FILE names). */
export function ownerKeyFile(armored: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'waitlist-owner-')), 'owner-key.asc');
  writeFileSync(file, armored, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * The address of each signup, by id, opened as the owner's command opens it: what the list holds,
 * byte for byte. `ownerKey`: the list's private key, armored (none while it is not sealed).
 * `address`: only the signups of that address (any letter case or Unicode form: found by its keyed hash).
 */
export async function storedAddresses(
  owner: Client,
  ownerKey?: string,
  address?: string,
): Promise<Map<string, string>> {
  const { rows } = await owner.query<StoredAddress>(
    `select w.id, w.email, k.step, k.key_id::text, k.sealed
     from public.waiting_list w join private.waiting_list_keys k on k.id = w.id
     where $1::text is null or k.address_hash = private.address_hash($1) order by w.id`,
    [address ?? null],
  );
  const opener = ownerKey ? new Opener(await parseOwnerKey(ownerKey, 'the owner key'), null) : null;
  const opened = new Map<string, string>();
  for (const row of rows) opened.set(row.id, await addressOf(owner, row, opener));
  return opened;
}

/** The addresses stored for every signup of `address`, oldest first (storedAddresses). */
export const storedAs = async (owner: Client, address: string, ownerKey?: string): Promise<string[]> => [
  ...(await storedAddresses(owner, ownerKey, address)).values(),
];

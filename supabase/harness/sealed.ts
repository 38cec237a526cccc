/**
 * Seals a test or benchmark database as `waitlist keys init` does (the same code, in-process),
 * with a fresh recovery key: its signups then take the sealed path, as they do in production.
 */
import type { Client } from 'pg';
import { Opener } from '../../cli/seal/open';
import { Ratchet } from '../../cli/seal/ratchet';
import { formatRecoveryKey, newRecoveryKey, parseRecoveryKey } from '../../cli/seal/recovery-key';
import { resealList } from '../../cli/seal/reseal';
import { addressOf, type StoredAddress } from '../../cli/seal/sealed-list';

/** Returns the recovery key as the owner would write it down. */
export async function sealList(owner: Client): Promise<string> {
  const key = newRecoveryKey();
  await resealList(owner, null, new Ratchet(key));
  return formatRecoveryKey(key);
}

/**
 * The address of each signup, by id, opened as the owner's command opens it: what the list holds,
 * byte for byte. `recoveryKey`: the list's (none while it is not sealed). `address`: only the
 * signups of that address (any letter case or Unicode form: found by its keyed hash).
 */
export async function storedAddresses(
  owner: Client,
  recoveryKey?: string,
  address?: string,
): Promise<Map<string, string>> {
  const { rows } = await owner.query<StoredAddress>(
    `select w.id, w.email, k.step, k.sealed from public.waiting_list w join private.waiting_list_keys k on k.id = w.id
     where $1::text is null or k.address_hash = private.address_hash($1) order by w.id`,
    [address ?? null],
  );
  const opener = recoveryKey ? new Opener(new Ratchet(parseRecoveryKey(recoveryKey))) : null;
  return new Map(rows.map((row) => [row.id, addressOf(row, opener)]));
}

/** The addresses stored for every signup of `address`, oldest first (storedAddresses). */
export const storedAs = async (owner: Client, address: string, recoveryKey?: string): Promise<string[]> => [
  ...(await storedAddresses(owner, recoveryKey, address)).values(),
];

/**
 * Seals a test or benchmark database as `waitlist keys init` does (the same code, in-process),
 * with a fresh recovery key: its signups then take the sealed path, as they do in production.
 */
import type { Client } from 'pg';
import { Opener } from '../../cli/seal/open';
import { Ratchet } from '../../cli/seal/ratchet';
import { formatRecoveryKey, newRecoveryKey, parseRecoveryKey } from '../../cli/seal/recovery-key';
import { resealList } from '../../cli/seal/reseal';

/** Returns the recovery key as the owner would write it down. */
export async function sealList(owner: Client): Promise<string> {
  const key = newRecoveryKey();
  await resealList(owner, null, new Ratchet(key));
  return formatRecoveryKey(key);
}

/**
 * The addresses stored for every signup of `address` (any letter case or Unicode form: found by
 * its keyed hash), oldest first, opened as `waitlist export` opens them: what the list holds, byte
 * for byte. `recoveryKey` is the list's (none while it is not sealed).
 */
export async function storedAs(owner: Client, address: string, recoveryKey?: string): Promise<string[]> {
  const { rows } = await owner.query<{ id: string; email: string | null; step: number; sealed: Buffer }>(
    `select w.id, w.email, k.step, k.sealed from public.waiting_list w join private.waiting_list_keys k on k.id = w.id
     where k.address_hash = private.address_hash($1) order by w.id`,
    [address],
  );
  const opener = recoveryKey ? new Opener(new Ratchet(parseRecoveryKey(recoveryKey))) : null;
  return rows.map((row) =>
    row.email !== null
      ? row.email
      : opener!.open([{ id: BigInt(row.id), step: row.step, sealed: row.sealed }])[0].toString('utf8'),
  );
}

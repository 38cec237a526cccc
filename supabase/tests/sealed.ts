/**
 * Seals a test or benchmark database as `waitlist keys init` does (the same code, in-process),
 * with a fresh recovery key: its signups then take the sealed path, as they do in production.
 */
import type { Client } from 'pg';
import { Ratchet } from '../../cli/seal/ratchet';
import { formatRecoveryKey, newRecoveryKey } from '../../cli/seal/recovery-key';
import { resealList } from '../../cli/seal/reseal';

/** Returns the recovery key as the owner would write it down. */
export async function sealList(owner: Client): Promise<string> {
  const key = newRecoveryKey();
  await resealList(owner, null, new Ratchet(key));
  return formatRecoveryKey(key);
}

/** What the owner's commands ask the database about sealing, and the key check before opening. */
import type pg from 'pg';
import { longQuery } from '../connect/database.ts';
import { UsageError } from '../terminal.ts';
import { Opener, SealBroken } from './open.ts';
import { Ratchet } from './ratchet.ts';
import { recoveryKey } from './recovery-input.ts';

type Queryable = pg.Client | pg.Pool | pg.PoolClient;

export type SealState = { started: boolean; step: number | null; fingerprint: Buffer | null };

export async function sealState(db: Queryable): Promise<SealState> {
  const { rows } = await db.query<SealState>(
    `select exists (select from private.seal_chain) as started, k.step, sha256(k.chain_key) as fingerprint
     from (select) one left join private.seal_key k on true`,
  );
  return rows[0];
}

/** The recovery key's ratchet, refused (exit 2) unless it derives the database's current key. */
export function checkedRatchet(key: Buffer, state: SealState): Ratchet {
  const ratchet = new Ratchet(key);
  if (state.step !== null && !ratchet.fingerprint(state.step).equals(state.fingerprint!)) {
    throw new UsageError(
      'That recovery key does not open this list (it is another list\'s, or one replaced by "keys rotate").',
    );
  }
  return ratchet;
}

/** What opens the list's seals; null while nothing is sealed (before `keys init`), when no key is asked. */
export async function openerFor(db: Queryable, purpose: string): Promise<Opener | null> {
  const state = await sealState(db);
  if (!state.started) return null;
  return new Opener(checkedRatchet(await recoveryKey(purpose), state));
}

/** A signup as the list stores it: its address before `keys init`, else its seal. */
export type StoredAddress = { id: string; email: string | null; step: number | null; sealed: Buffer | null };

/** The address, opened if sealed (one row: notify's claims; export opens in bulk). */
export function addressOf(row: StoredAddress, opener: Opener | null): string {
  if (row.email !== null) return row.email;
  if (row.sealed === null || row.step === null)
    throw new SealBroken(`Signup ${row.id} holds neither an address nor a seal.`);
  if (!opener) throw new SealBroken(`Signup ${row.id} is sealed, but sealing was never started here.`);
  return opener.open([{ id: BigInt(row.id), step: row.step, sealed: row.sealed }])[0].toString('utf8');
}

/** Keys and seals rows that arrived with triggers off (a data-only restore), as the hourly job does. */
export async function sealPending(db: Queryable): Promise<void> {
  await db.query(longQuery('select private.seal_pending()'));
}

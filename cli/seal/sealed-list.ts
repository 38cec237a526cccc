/** What the owner's commands ask the database about sealing, and the key check before opening. */
import type pg from 'pg';
import { UsageError } from '../terminal.ts';
import { Opener } from './open.ts';
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

/** Keys and seals rows that arrived with triggers off (a data-only restore); every command runs it first. */
export async function sealPending(db: Queryable): Promise<void> {
  await db.query('select private.seal_pending()');
}

/** What the owner's commands ask the database about sealing, and the key checks before opening. */
import type pg from 'pg';
import { longQuery } from '../connect/database.ts';
import { UsageError } from '../terminal.ts';
import { Opener, SealBroken } from './open.ts';
import { matches, ownerKey, type OwnerKey } from './owner-key.ts';
import { Ratchet } from './ratchet.ts';
import { recoveryKey } from './recovery-input.ts';

type Queryable = pg.Client | pg.Pool | pg.PoolClient;

/**
 * hourly: the owner's public key is installed (hourly keys); started: the ratchet began (a list
 * sealed before hourly keys, until `keys upgrade`); step and fingerprint: the ratchet's.
 */
export type SealState = {
  hourly: boolean;
  publicKey: Buffer | null;
  started: boolean;
  step: number | null;
  fingerprint: Buffer | null;
};

export async function sealState(db: Queryable): Promise<SealState> {
  const { rows } = await db.query<SealState>(
    `select o.public_key is not null as hourly, o.public_key as "publicKey",
            exists (select from private.seal_chain) as started, k.step, sha256(k.chain_key) as fingerprint
     from (select) one left join private.seal_key k on true left join private.owner_key o on true`,
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

/** The owner's private key, refused (exit 2) unless it is the one whose public key the database holds. */
export async function checkedOwnerKey(key: OwnerKey, state: SealState): Promise<OwnerKey> {
  if (!(await matches(key, state.publicKey!))) {
    throw new UsageError("That owner key does not open this list (the database holds another one's public key).");
  }
  return key;
}

/**
 * What opens the list's seals; null while nothing is sealed (before `keys init`), when no key is
 * asked. Hourly keys are unwrapped by the caller, in the snapshot it reads (Opener.load).
 */
export async function openerFor(db: Queryable, purpose: string): Promise<Opener | null> {
  const state = await sealState(db);
  if (state.hourly) return new Opener(await checkedOwnerKey(await ownerKey(purpose), state), null);
  if (!state.started) return null;
  return new Opener(null, checkedRatchet(await recoveryKey(purpose), state));
}

/** A signup as the list stores it: its address before `keys init`, else its seal. */
export type StoredAddress = {
  id: string;
  email: string | null;
  step: number | null;
  key_id: string | null;
  sealed: Buffer | null;
};

/** The address, opened if sealed (one row: notify's claims; export opens in bulk). */
export async function addressOf(db: Queryable, row: StoredAddress, opener: Opener | null): Promise<string> {
  if (row.email !== null) return row.email;
  if (row.sealed === null || (row.step === null && row.key_id === null))
    throw new SealBroken(`Signup ${row.id} holds neither an address nor a seal.`);
  if (!opener) throw new SealBroken(`Signup ${row.id} is sealed, but sealing was never started here.`);
  const sealed = {
    id: BigInt(row.id),
    step: row.step,
    keyId: row.key_id === null ? null : BigInt(row.key_id),
    sealed: row.sealed,
  };
  await opener.load(db, opener.missing([sealed]));
  return opener.openOne(sealed).toString('utf8');
}

/** Keys and seals rows that arrived with triggers off (a data-only restore), as the hourly job does. */
export async function sealPending(db: Queryable): Promise<void> {
  await db.query(longQuery('select private.seal_pending()'));
}

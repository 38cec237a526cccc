/**
 * `keys upgrade`: a list sealed by the recovery-key ratchet moves to hourly keys. In one
 * transaction: the owner's public key is installed (after the saved private key opened a test key
 * the database wrapped), every row is opened with the ratchet and sealed again under one new key
 * made here and wrapped here to the owner's public key (the database never holds it in clear), and
 * the ratchet's chain is deleted. Signups go on meanwhile: those that began before the commit may
 * still be sealed by the ratchet, and are sealed again once they have ended.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { progress } from '../progress.ts';
import { UsageError } from '../terminal.ts';
import { proveOpens } from './install.ts';
import { Opener } from './open.ts';
import { type OwnerKey, wrap } from './owner-key.ts';
import type { Ratchet } from './ratchet.ts';
import { inTransaction } from './reseal.ts';
import { sealWithHourKey } from './seal.ts';

const BATCH = 5_000;

type Row = { id: string; email: string | null; step: number | null; sealed: Buffer | null };
type NewKey = { id: bigint; key: Buffer };

/** Every row still in plaintext or sealed by the ratchet, sealed under `to`; returns how many. */
async function pass(db: pg.Client, from: Opener, to: NewKey, label: string): Promise<number> {
  const where = `(w.email is not null or k.step is not null)`;
  const { rows: counted } = await db.query<{ n: number }>(
    `select count(*)::int as n from public.waiting_list w join private.waiting_list_keys k on k.id = w.id where ${where}`,
  );
  const bar = progress(label, counted[0].n);
  let after = '0';
  let done = 0;
  for (;;) {
    const { rows } = await db.query<Row>(
      `select w.id, w.email, k.step, k.sealed from public.waiting_list w join private.waiting_list_keys k on k.id = w.id
       where w.id > $1 and ${where} order by w.id limit $2`,
      [after, BATCH],
    );
    if (!rows.length) break;
    const seals = rows.map((row) => {
      const id = BigInt(row.id);
      const address = row.email ?? from.openOne({ id, step: row.step, keyId: null, sealed: row.sealed! });
      return sealWithHourKey(to.id, to.key, id, address);
    });
    const ids = rows.map((row) => row.id);
    await db.query(
      `update private.waiting_list_keys k set step = null, key_id = $3, sealed = u.sealed
       from unnest($1::bigint[], $2::bytea[]) u(id, sealed) where k.id = u.id`,
      [ids, seals, String(to.id)],
    );
    await db.query('update public.waiting_list set email = null where id = any ($1::bigint[]) and email is not null', [
      ids,
    ]);
    after = rows[rows.length - 1].id;
    done += rows.length;
    bar.advance(rows.length);
  }
  bar.stop();
  return done;
}

/**
 * Moves the list from `ratchet` to hourly keys wrapped to `publicKey`; returns the rows sealed
 * again. `installed` is called as soon as the move is committed (the chain is gone from then on).
 */
export async function upgradeList(
  db: pg.Client,
  ratchet: Ratchet,
  publicKey: Buffer,
  saved: OwnerKey,
  installed: () => void = () => {},
): Promise<number> {
  const from = new Opener(null, ratchet);
  const to: NewKey = { id: 0n, key: randomBytes(64) };
  try {
    const sealed = await inTransaction(db, async () => {
      await db.query('select private.seal_pending()');
      // Pins the ratchet: its hourly step waits until this commits, then finds nothing to advance.
      const current = await db.query('select step from private.seal_key for update');
      if (!current.rows.length) throw new UsageError('The list is not sealed by the ratchet: nothing to upgrade.');
      await proveOpens(db, publicKey, saved);
      await db.query('insert into private.owner_key (public_key) values ($1)', [publicKey]);
      const { rows } = await db.query<{ id: string }>(
        `insert into private.seal_keys (hour, wrapped) values (date_trunc('hour', private.seal_clock(), 'UTC'), $1)
         returning id`,
        [await wrap(publicKey, to.key)],
      );
      to.id = BigInt(rows[0].id);
      const sealed = await pass(db, from, to, 'seal');
      await db.query('delete from private.seal_key');
      await db.query('delete from private.seal_chain');
      return sealed;
    });
    installed();
    // Waits for every signup that began before the commit, then seals what the ratchet sealed for them.
    await inTransaction(db, () => db.query('lock table public.waiting_list in share mode'));
    return sealed + (await inTransaction(db, () => pass(db, from, to, 'late signups')));
  } finally {
    to.key.fill(0);
  }
}

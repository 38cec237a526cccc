/**
 * `keys init` and `keys rotate`: every row sealed afresh in Node under a new recovery key, at one
 * step b (init: 0; rotate: the old chain's next step), and the new chain's step b + 1 handed to the
 * database, in one transaction. Signups go on meanwhile: they are sealed by the old key (or stored
 * in plaintext before init) and, having a step below b, are found and re-sealed once every
 * signup that began before the commit has ended.
 */
import type pg from 'pg';
import { progress } from '../progress.ts';
import { UsageError } from '../terminal.ts';
import type { Opener } from './open.ts';
import type { Ratchet, StepKeys } from './ratchet.ts';
import { seal } from './seal.ts';

const BATCH = 5_000;

type Row = { id: string; email: string | null; step: number | null; sealed: Buffer | null };

async function resealBatch(db: pg.Client, rows: Row[], from: Opener | null, to: StepKeys): Promise<void> {
  const closed = rows.filter((row) => row.email === null);
  if (closed.length && !from) throw new Error(`Signup ${closed[0].id} is sealed already, by a key this list has lost.`);
  const opened = from
    ? from.open(closed.map((row) => ({ id: BigInt(row.id), step: row.step!, keyId: null, sealed: row.sealed! })))
    : [];
  let next = 0;
  const seals = rows.map((row) => seal(to, BigInt(row.id), row.email ?? opened[next++]));
  const ids = rows.map((row) => row.id);
  await db.query(
    `update private.waiting_list_keys k set step = $3, sealed = u.sealed
     from unnest($1::bigint[], $2::bytea[]) u(id, sealed) where k.id = u.id`,
    [ids, seals, to.step],
  );
  await db.query('update public.waiting_list set email = null where id = any ($1::bigint[]) and email is not null', [
    ids,
  ]);
}

/** Every row still in plaintext or sealed below `step`, re-sealed at `step`; returns how many. */
async function pass(db: pg.Client, step: number, from: Opener | null, to: Ratchet, label: string): Promise<number> {
  const { rows: counted } = await db.query<{ n: number }>(
    `select count(*)::int as n from private.waiting_list_keys k join public.waiting_list w on w.id = k.id
     where (w.email is not null or k.sealed is not null) and (k.step is null or k.step < $1)`,
    [step],
  );
  const bar = progress(label, counted[0].n);
  let after = '0';
  let done = 0;
  for (;;) {
    const { rows } = await db.query<Row>(
      `select w.id, w.email, k.step, k.sealed from public.waiting_list w join private.waiting_list_keys k on k.id = w.id
       where w.id > $1 and (w.email is not null or k.sealed is not null) and (k.step is null or k.step < $2)
       order by w.id limit $3`,
      [after, step, BATCH],
    );
    if (!rows.length) break;
    await resealBatch(db, rows, from, to.at(step));
    after = rows[rows.length - 1].id;
    done += rows.length;
    bar.advance(rows.length);
  }
  bar.stop();
  return done;
}

export async function inTransaction<T>(db: pg.Client, work: () => Promise<T>): Promise<T> {
  await db.query('begin');
  try {
    const result = await work();
    await db.query('commit');
    return result;
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

/** Seals the list under `to`; `from` opens what is sealed now (null for `keys init`). Returns the rows sealed. */
export async function resealList(db: pg.Client, from: Opener | null, to: Ratchet): Promise<number> {
  const { step, sealed } = await inTransaction(db, async () => {
    await db.query('select private.seal_pending()');
    // Pins the step: the hourly advance waits (and retries next hour) until this commits.
    const current = await db.query<{ step: number }>('select step from private.seal_key for update');
    if (!from && current.rows.length) throw new UsageError('The list is sealed already: see "keys rotate".');
    const step = from ? current.rows[0].step + 1 : 0;
    const sealed = await pass(db, step, from, to, 'seal');
    await db.query('select private.set_seal_key($1, $2)', [step + 1, to.chainKey(step + 1)]);
    await db.query(
      from
        ? 'update private.seal_chain set started_at = now()'
        : // A second `keys init` at the same moment waits here, then fails on the primary key.
          'insert into private.seal_chain default values',
    );
    return { step, sealed };
  });
  // Waits for every signup that began before the commit, then seals what they stored.
  await inTransaction(db, () => db.query('lock table public.waiting_list in share mode'));
  return sealed + (await inTransaction(db, () => pass(db, step, from, to, 'late signups')));
}

/**
 * Rewrites the list's tables (and the ratchet's key table) into new files, so the plaintext (or
 * old seals, or a deleted chain key) of the rows just sealed does not linger in dead row versions, and refreshes their statistics, which sample
 * column values. Signups wait while it runs; it gives up after 5 s of waiting for the lock.
 */
export async function compactList(db: pg.Client): Promise<boolean> {
  await db.query(`set lock_timeout = '5s'`);
  try {
    await db.query('vacuum (full, analyze) public.waiting_list, private.waiting_list_keys, private.seal_key');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== '55P03') throw error;
    return false;
  } finally {
    await db.query('reset lock_timeout');
  }
}

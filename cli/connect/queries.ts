/** What every command's database work goes through: a connection or pool, and a transaction. */
import type pg from 'pg';

export type Queryable = pg.Pool | pg.Client | pg.PoolClient;

/** Runs `work` in a transaction on `db`: committed if it resolves, rolled back if it throws. */
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

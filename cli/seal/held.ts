/**
 * Whether the database holds a given public key of the owner, asked on a new connection once the
 * one that installed it failed: the server may have committed it with the reply lost on the way.
 * A SHARE lock on private.owner_key waits for that transaction to end (its insert holds a
 * conflicting lock until it commits or rolls back). null: the check could not be made.
 */
import { createHash } from 'node:crypto';
import { withDatabase } from '../connect/database.ts';
import { inTransaction } from '../list/transaction.ts';

/** What the owner compares by hand: `select encode(sha256(public_key), 'hex') from private.owner_key`. */
export const publicKeyDigest = (publicKey: Buffer) => createHash('sha256').update(publicKey).digest('hex');

export async function ownerKeyHeld(publicKey: Buffer): Promise<boolean | null> {
  try {
    return await withDatabase((db) =>
      inTransaction(db, async () => {
        await db.query(`set local lock_timeout = '20s'`);
        await db.query('lock table private.owner_key in share mode');
        const { rows } = await db.query<{ held: boolean }>(
          'select exists (select from private.owner_key where public_key = $1) as held',
          [publicKey],
        );
        return rows[0].held;
      }),
    );
  } catch {
    return null;
  }
}

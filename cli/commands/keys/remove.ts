import { withDatabase } from '../../connect/database.ts';
import { inTransaction } from '../../connect/queries.ts';
import { holders, notWrappedTo } from '../../seal/open.ts';
import { confirm, say, UsageError } from '../../terminal/terminal.ts';
import { dropLogin, lockLogin } from './holder-login.ts';

/**
 * `keys remove`: every row of the key goes, and the clear hour keys (past hours' tables truncated at once unless a
 * signup holds one; the current hour's, truncated within a minute of its end): the key opens nothing sealed after it
 * returns; the other holders keep the whole list.
 */
export async function remove(keyId: string, { yes }: { yes?: boolean }) {
  await withDatabase(async (db) => {
    const holder = (await holders(db)).find((h) => [h.keyId, h.fingerprint].includes(keyId.toUpperCase()));
    if (!holder) throw new UsageError(`No holder has key ${keyId}: npm run waitlist -- keys holders lists them.`);
    await confirm(`Remove key ${holder.keyId}? It will open nothing sealed from now on.`, yes);
    await inTransaction(db, async () => {
      // One remove at a time, and no hour key made meanwhile (its copy for this holder would fail).
      await db.query('lock table private.key_holders, private.hour_keys in share row exclusive mode');
      const { rows } = await db.query<{ others: number; lacking_hour_keys: number }>(
        `select count(*)::int as others,
                count(*) filter (
                  where exists (select from private.hour_keys k where ${notWrappedTo('h.id')})
                )::int as lacking_hour_keys
         from private.key_holders h where extensions.pgp_key_id(h.public_key) <> $1`,
        [holder.keyId],
      );
      if (!rows[0].others) throw new UsageError('That is the only holder: add another first (keys add).');
      if (rows[0].lacking_hour_keys) {
        throw new UsageError('Another holder lacks hour keys (a keys add that stopped): rerun it first.');
      }
      await db.query('delete from private.key_holders where extensions.pgp_key_id(public_key) = $1', [holder.keyId]);
      await lockLogin(db, holder.id);
      // The clear hour keys go too (signups do not wait): the next signup makes one for the others only.
      await db.query('delete from private.hour_key_0; delete from private.hour_key_1; delete from private.hour_key_2');
      await db.query('select private.retire_hour_keys()'); // past hours' files, NOWAIT
    });
    // A signup under way may have taken the old key: waited for (a moment), so none seals with it later.
    await inTransaction(db, () => db.query('lock table public.waiting_list in share mode'));
    // Removed for good from here: a login that cannot be dropped yet can connect no more.
    const kept = await dropLogin(db, holder.id);
    say(`Removed key ${holder.keyId}, however it was exported: it opens nothing sealed from now on (what it opened`);
    say("before, it may have kept). This hour's clear key, deleted, leaves the database's files when the hour ends.");
    if (kept) {
      say(`Its login (waitlist_holder_${holder.id}) can connect no more, but is still there: ${kept}`);
    }
  });
}

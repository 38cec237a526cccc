/**
 * `keys check`: proves that a stored copy of a holder's key opens the list (every hour key wrapped to it unwrapped, the
 * first seal of each opened, no address shown) and records when it last did.
 */
import { withDatabase } from '../../connect/database.ts';
import { notWrappedTo, openerFor, wrappedKeys } from '../../seal/open.ts';
import { unprotected } from '../../seal/owner-key.ts';
import { out, say, UsageError } from '../../terminal/terminal.ts';

export async function check({ keyFile }: { keyFile?: string }) {
  await withDatabase(async (db) => {
    const opener = await openerFor(db, 'keys check', keyFile);
    if (!opener) throw new UsageError('The list is not sealed yet: npm run waitlist -- keys init.');
    const { id, keyId } = opener.holder;
    const { rows } = await db.query<{ total: number; missing: number }>(
      `select count(*)::int as total, count(*) filter (where ${notWrappedTo('$1')})::int as missing
       from private.hour_keys k`,
      [id],
    );
    const { total, missing } = rows[0];
    if (missing) {
      throw new Error(
        `${missing} of ${total} hour keys are not wrapped to key ${keyId}: ` +
          `a holder whose key opens the list runs keys add --public-key <key ${keyId}'s public key>.`,
      );
    }
    await opener.unwrapAll(await wrappedKeys(db, id));
    const { rows: firsts } = await db.query<{ id: string; hour_key_id: string; seal: Buffer }>(
      'select id::text, hour_key_id::text, seal from private.first_seals()',
    );
    for (const row of firsts) {
      opener.openOne({ id: BigInt(row.id), hourKeyId: BigInt(row.hour_key_id), seal: row.seal });
    }
    const { rows: recorded } = await db.query('select private.record_key_check($1) as done', [id]);
    if (!recorded[0].done) throw new UsageError(`This login records checks of another holder's key, not ${keyId}.`);
    out(`This copy of key ${keyId} opens the list: ${total} hour keys unwrapped, the first seal of each of the`);
    out(`${firsts.length} in use opened. Recorded as checked now (health asks again after 90 days).`);
    if (unprotected.has(opener.owner)) {
      say('Warning: this copy has no passphrase: whoever reads it opens the list. Give it one (docs/operations.md,');
      say('"Sealing the list"), store that copy instead, and check it again.');
    }
  });
}

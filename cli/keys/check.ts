/**
 * `keys check`: proves that a stored copy of a holder's key opens the list (every hour key wrapped to
 * it unwrapped, the first seal of each opened, no address shown) and records when it last did.
 */
import { withDatabase } from '../connect/database.ts';
import { openerFor, wrappedKeys } from '../seal/open.ts';
import { out, UsageError } from '../terminal.ts';

export async function check({ keyFile }: { keyFile?: string }): Promise<void> {
  await withDatabase(async (db) => {
    const opener = await openerFor(db, 'keys check', keyFile);
    if (!opener) throw new UsageError('The list is not sealed yet: npm run waitlist -- keys init.');
    const { id, keyId } = opener.holder;
    const wrapped = await wrappedKeys(db, id);
    const { total } = (await db.query<{ total: number }>('select count(*)::int as total from private.hour_keys'))
      .rows[0];
    const missing = `${total - wrapped.length} of ${total} hour keys are not wrapped to key ${keyId}: run keys add again.`;
    if (wrapped.length < total) throw new Error(missing);
    await opener.unwrapAll(wrapped);
    const { rows: firsts } = await db.query<{ id: string; hour_key_id: string; seal: Buffer }>(
      `select distinct on (hour_key_id) id::text, hour_key_id::text, seal from private.signup_addresses
       where seal is not null order by hour_key_id, id`,
    );
    for (const row of firsts)
      opener.openOne({ id: BigInt(row.id), hourKeyId: BigInt(row.hour_key_id), seal: row.seal });
    await db.query('update private.key_holders set checked_at = now() where id = $1', [id]);
    out(`This copy of key ${keyId} opens the list: ${total} hour keys unwrapped, the first seal of each of the`);
    out(`${firsts.length} in use opened. Recorded as checked now (health asks again after 90 days).`);
  });
}

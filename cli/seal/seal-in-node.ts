/**
 * Sealing in Node, as private.seal_with does, the rows stored before `keys init`: under an hour key made and wrapped
 * here, never in clear in the database, so a copy of that hour opens none of them.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { HOUR_KEY_BYTES, IV_BYTES, splitHourKey, tagInput } from '../../contracts/seal-format.ts';
import { progress } from '../terminal/progress.ts';
import { wrap } from './owner-key.ts';

const BATCH = 5_000;

function sealInNode(hourKeyId: bigint, key: Buffer, id: bigint, address: string): Buffer {
  const { encryption, authentication } = splitHourKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-cbc', encryption, iv);
  const signed = Buffer.concat([iv, cipher.update(address, 'utf8'), cipher.final()]);
  const hmac = createHmac('sha256', authentication);
  for (const part of tagInput(hourKeyId, id, signed)) hmac.update(part);
  return Buffer.concat([signed, hmac.digest()]);
}

/** Seals every stored (and hashed) address under a new hour key; in the caller's transaction, signups held off. */
export async function sealStoredInNode(db: pg.Client, holder: { id: string; publicKey: Buffer }) {
  const key = randomBytes(HOUR_KEY_BYTES);
  try {
    const { rows } = await db.query<{ id: string }>(
      `with made as (insert into private.hour_keys (hour) values (date_trunc('hour', private.seal_clock(), 'UTC'))
                     returning id)
       insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
       select id, $1, $2 from made returning hour_key_id::text as id`,
      [holder.id, await wrap(holder.publicKey, key)],
    );
    const hourKeyId = BigInt(rows[0].id);
    const { rows: counted } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.waiting_list w join private.signup_addresses a on a.id = w.id
       where w.email is not null`,
    );
    const bar = progress('seal', counted[0].n);
    for (let after = '0'; ;) {
      const { rows: batch } = await db.query<{ id: string; email: string }>(
        `select w.id::text, w.email from public.waiting_list w join private.signup_addresses a on a.id = w.id
         where w.email is not null and w.id > $1 order by w.id limit $2`,
        [after, BATCH],
      );
      if (!batch.length) break;
      const ids = batch.map((row) => row.id);
      const seals = batch.map((row) => sealInNode(hourKeyId, key, BigInt(row.id), row.email));
      await db.query(
        `update private.signup_addresses a set hour_key_id = $3, seal = u.seal
         from unnest($1::bigint[], $2::bytea[]) u(id, seal) where a.id = u.id`,
        [ids, seals, String(hourKeyId)],
      );
      await db.query('update public.waiting_list set email = null where id = any ($1::bigint[])', [ids]);
      after = ids[ids.length - 1];
      bar.advance(batch.length);
    }
    bar.stop();
    return counted[0].n; // signups are held off: every one of them
  } finally {
    key.fill(0);
  }
}

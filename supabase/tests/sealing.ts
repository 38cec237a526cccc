/**
 * The sealing as tests drive and attack it: its clock stopped at an hour, the hour keys held in
 * clear, the sealed rows, and a thief's own opening of a seal (none of the product's code).
 */
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import type { Client } from 'pg';

/** The sealing clock stopped at `at` (an ISO time), or the real one again. */
export const setSealClock = (client: Client, at: string | null) =>
  client.query(
    `create or replace function private.seal_clock() returns timestamptz language sql stable set search_path = ''
     as $$ select ${at ? `timestamptz '${at}'` : 'now()'} $$`,
  );

/** The hour keys held in clear, and their hours. */
export const CLEAR_KEYS = `select hour, clear_key from private.hour_key_0 union all
  select hour, clear_key from private.hour_key_1 union all select hour, clear_key from private.hour_key_2`;

export type Sealed = { id: bigint; keyId: bigint; seal: Buffer };

/** Every sealed row, by id. */
export async function sealedRows(client: Client): Promise<Sealed[]> {
  const { rows } = await client.query<{ id: string; hour_key_id: string; seal: Buffer }>(
    'select id, hour_key_id, seal from private.signup_addresses where seal is not null order by id',
  );
  return rows.map((row) => ({ id: BigInt(row.id), keyId: BigInt(row.hour_key_id), seal: row.seal }));
}

/** The thief's own opening: the address, or null when the tag does not verify under `key`. */
export function openWith(key: Buffer, row: Sealed): string | null {
  const header = Buffer.alloc(16);
  header.writeBigInt64BE(row.keyId);
  header.writeBigInt64BE(row.id, 8);
  const body = row.seal.subarray(0, -32);
  const tag = createHmac('sha256', key.subarray(32)).update(header).update(body).digest();
  if (!timingSafeEqual(tag, row.seal.subarray(-32))) return null;
  const decipher = createDecipheriv('aes-256-cbc', key.subarray(0, 32), body.subarray(0, 16));
  return Buffer.concat([decipher.update(body.subarray(16)), decipher.final()]).toString('utf8');
}

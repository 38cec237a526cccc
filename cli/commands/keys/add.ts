/**
 * `keys add`: a new key holder. Each hour key is wrapped to every holder, so any one of them opens the list: every past
 * hour key is wrapped to the new holder's public key.
 */
import { dirname } from 'node:path';
import type pg from 'pg';
import { withDatabase } from '../../connect/database.ts';
import { inTransaction } from '../../connect/queries.ts';
import { RSA_BITS, unwrap, wrap } from '../../seal/owner-key.ts';
import { type Opener, openerFor } from '../../seal/open.ts';
import { readText, say, UsageError } from '../../terminal/terminal.ts';
import { giveLogin } from './holder-login.ts';

const AT_ONCE = 16;

type PublicKey = { bytes: Buffer; fingerprint: string };

/**
 * A holder's public key as the database keeps it (binary), and its primary key's fingerprint; refused unless RSA
 * (pgcrypto wraps to it).
 */
async function publicKeyIn(file: string): Promise<PublicKey> {
  const text = readText(file, '--public-key');
  if (/PRIVATE KEY/.test(text)) {
    throw new UsageError(
      `${file} holds a private key. Ask the holder for the public key only (gpg --export --armor), ` +
        'and since this one travelled, for a new key pair.',
    );
  }
  const { readKey } = await import('openpgp');
  const key = await readKey({ armoredKey: text }).catch((error: Error) => {
    throw new UsageError(`${file} is not an OpenPGP public key: ${error.message}.`);
  });
  const encryption = await key.getEncryptionKey().catch(() => null);
  const { algorithm, bits = 0 } = encryption?.getAlgorithmInfo() ?? {};
  if (!algorithm?.startsWith('rsa') || bits < RSA_BITS) {
    throw new UsageError(`${file} has no RSA encryption key of ${RSA_BITS} bits or more (pgcrypto wraps to RSA only).`);
  }
  return { bytes: Buffer.from(key.write()), fingerprint: key.getFingerprint().toUpperCase() };
}

/**
 * The holder row of `key` (by its encryption key's id or its fingerprint), made if none; a UsageError for another key
 * under that fingerprint.
 */
async function holderOf(db: pg.Client, key: PublicKey): Promise<{ id: string; keyId: string; held: boolean }> {
  const held = await db.query<{ id: string; keyId: string; same: boolean }>(
    `select id::text, extensions.pgp_key_id(public_key) as "keyId",
            extensions.pgp_key_id(public_key) = extensions.pgp_key_id($1) as same
     from private.key_holders
     where extensions.pgp_key_id(public_key) = extensions.pgp_key_id($1) or fingerprint = $2`,
    [key.bytes, key.fingerprint],
  );
  const other = held.rows.find((row) => !row.same);
  if (other) {
    throw new UsageError(`That key is a holder already, with encryption key ${other.keyId}: keys remove it first.`);
  }
  const [row] = held.rows;
  if (row) {
    await db.query('update private.key_holders set fingerprint = $2 where id = $1', [row.id, key.fingerprint]);
    return { ...row, held: true };
  }
  const { rows } = await db.query<{ id: string; keyId: string }>(
    `insert into private.key_holders (public_key, fingerprint) values ($1, $2)
     returning id::text, extensions.pgp_key_id(public_key) as "keyId"`,
    [key.bytes, key.fingerprint],
  );
  return { ...rows[0], held: false };
}

/** Wraps to `holder` every hour key it lacks, unwrapped with `opener`'s key; returns how many. */
async function wrapMissing(db: pg.Client, opener: Opener, holder: { id: string; publicKey: Buffer }): Promise<number> {
  const { rows } = await db.query<{ id: string; wrapped: Buffer }>(
    `select w.hour_key_id::text as id, w.wrapped from private.wrapped_hour_keys w where w.holder_id = $1
       and not exists (
         select from private.wrapped_hour_keys n where n.hour_key_id = w.hour_key_id and n.holder_id = $2)`,
    [opener.holder.id, holder.id],
  );
  for (let i = 0; i < rows.length; i += AT_ONCE) {
    const batch = rows.slice(i, i + AT_ONCE);
    const wrapped = await Promise.all(
      batch.map(async (row) => {
        const clear = await unwrap(opener.owner, row.wrapped);
        return wrap(holder.publicKey, clear).finally(() => clear.fill(0));
      }),
    );
    await db.query(
      `insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
       select id, $3, w from unnest($1::bigint[], $2::bytea[]) u(id, w) on conflict do nothing`,
      [batch.map((row) => row.id), wrapped, holder.id],
    );
  }
  return rows.length;
}

/** `keys add`: a new holder (safe to run again: it finishes an add that stopped). */
export async function add({ publicKey: file }: { publicKey: string }) {
  const key = await publicKeyIn(file);
  await withDatabase(async (db) => {
    const opener = await openerFor(db, 'keys add (it wraps every hour key to the new holder)');
    if (!opener) throw new UsageError('The list is not sealed yet: npm run waitlist -- keys init.');
    // From this commit on, every new hour key is wrapped to the new holder too.
    const { id, keyId, held } = await holderOf(db, key);
    const holder = { id, publicKey: key.bytes };
    let wrapped = await wrapMissing(db, opener, holder);
    // Keys made by signups that began before the holder was added: waited for (a moment), then wrapped.
    wrapped += await inTransaction(db, async () => {
      await db.query('lock table private.hour_keys in share mode');
      return wrapMissing(db, opener, holder);
    });
    if (held) say(`Key ${keyId} was a holder already (its row kept, however it was exported).`);
    const login = await giveLogin(db, { ...holder, keyId }, dirname(file)); // beside their public key
    say(`Key ${keyId} now holds the list: ${wrapped} hour keys wrapped to it. Send its holder ${login}, their`);
    say('login (it changes nothing of the list), readable with their key only. They prove their stored copy opens the');
    say(`list with (health asks until they do): DATABASE_URL="$(gpg -d ${login})" npm run waitlist -- keys check`);
  });
}

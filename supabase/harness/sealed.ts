/**
 * Seals a test or benchmark database as `waitlist keys init` leaves it: a fresh owner key pair,
 * its public half in private.key_holders, every stored address sealed (private.seal_pending). Its
 * signups then take the sealed path, as they do in production. And opens what the list holds,
 * as the owner's command does, with OpenPGP.js and Node's crypto.
 */
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import type { Client } from 'pg';
import { splitHourKey, splitSeal, tagInput } from '../../contracts/seal-format.ts';

/** A key pair as `keys init` makes it (RSA 3072: pgcrypto wraps to RSA or Elgamal only), without a passphrase. */
export async function keyPair(passphrase?: string): Promise<{ privateKey: string; publicKey: Uint8Array }> {
  const pair = await openpgp.generateKey({
    type: 'rsa',
    rsaBits: 3072,
    userIDs: [{ name: 'waitlist owner' }],
    format: 'armored',
    ...(passphrase ? { passphrase } : {}),
  });
  return { privateKey: pair.privateKey, publicKey: (await openpgp.readKey({ armoredKey: pair.publicKey })).write() };
}

/**
 * Returns the owner's private key, armored, as `keys init` writes it to its file; its stored copy
 * checked, as `keys check` records it. `pair`: the owner's key pair, when several databases share one.
 */
export async function sealList(owner: Client, pair?: Awaited<ReturnType<typeof keyPair>>): Promise<string> {
  const { privateKey, publicKey } = pair ?? (await keyPair());
  const { rows } = await owner.query(`select to_regclass('private.key_holders') is not null as holders`);
  await owner.query(
    rows[0].holders
      ? 'insert into private.key_holders (public_key, checked_at) values ($1, now())'
      : 'insert into private.owner_key (public_key) values ($1)', // the old chain's (a test moves it)
    [Buffer.from(publicKey)],
  );
  await owner.query('select private.seal_pending()');
  return privateKey;
}

/** The private key in a new file only this user may read (what WAITLIST_OWNER_KEY_FILE names). */
export function ownerKeyFile(armored: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'waitlist-owner-')), 'owner-key.asc');
  writeFileSync(file, armored, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

type Row = { id: string; email: string | null; hour_key_id: string | null; seal: Buffer | null };

/** The passphrase the tests' `keys init` protects its keys with (given the CLI as the environment gives it). */
export const TEST_PASSPHRASE = 'correct horse battery staple';

/** An armored private key, opened with TEST_PASSPHRASE if it has one. */
async function readOwnerKey(armored: string): Promise<openpgp.PrivateKey> {
  const key = await openpgp.readPrivateKey({ armoredKey: armored });
  return key.isDecrypted() ? key : openpgp.decryptKey({ privateKey: key, passphrase: TEST_PASSPHRASE });
}

/** An hour key unwrapped with the owner's private key. */
async function hourKey(owner: Client, privateKey: openpgp.PrivateKey, id: string): Promise<Buffer> {
  const { rows } = await owner.query<{ wrapped: Buffer }>(
    'select wrapped from private.wrapped_hour_keys where hour_key_id = $1 order by holder_id limit 1',
    [id],
  );
  const message = await openpgp.readMessage({ binaryMessage: rows[0].wrapped });
  const { data } = await openpgp.decrypt({ message, decryptionKeys: privateKey, format: 'binary' });
  return Buffer.from(data);
}

/** A seal opened (contracts/seal-format.ts), its tag checked first. */
function open(key: Buffer, row: Row): string {
  const parts = splitSeal(row.seal!);
  if (!parts) throw new Error(`Signup ${row.id}: its seal has no seal's length.`);
  const { encryption, authentication } = splitHourKey(key);
  const tag = createHmac('sha256', authentication);
  for (const part of tagInput(BigInt(row.hour_key_id!), BigInt(row.id), parts.signed)) tag.update(part);
  if (!timingSafeEqual(tag.digest(), parts.tag)) throw new Error(`Signup ${row.id}: its tag does not verify.`);
  const decipher = createDecipheriv('aes-256-cbc', encryption, parts.iv);
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
}

/**
 * The address of each signup, by id, opened as the owner's command opens it: what the list holds,
 * byte for byte. `ownerKey`: the list's private key, armored (none while it is not sealed).
 * `address`: only the signups of that address (any letter case or Unicode form: found by its address hash).
 */
export async function storedAddresses(
  owner: Client,
  ownerKey?: string,
  address?: string,
): Promise<Map<string, string>> {
  const { rows } = await owner.query<Row>(
    `select w.id, w.email, a.hour_key_id::text, a.seal
     from public.waiting_list w join private.signup_addresses a on a.id = w.id
     where $1::text is null or a.address_hash = private.address_hash($1) order by w.id`,
    [address ?? null],
  );
  const privateKey = ownerKey ? await readOwnerKey(ownerKey) : null;
  const keys = new Map<string, Buffer>();
  const opened = new Map<string, string>();
  for (const row of rows) {
    if (row.email !== null) opened.set(row.id, row.email);
    else if (row.seal === null || row.hour_key_id === null) throw new Error(`Signup ${row.id} holds nothing.`);
    else if (!privateKey) throw new Error(`Signup ${row.id} is sealed, and no owner key was given.`);
    else {
      if (!keys.has(row.hour_key_id)) keys.set(row.hour_key_id, await hourKey(owner, privateKey, row.hour_key_id));
      opened.set(row.id, open(keys.get(row.hour_key_id)!, row));
    }
  }
  return opened;
}

/** The addresses stored for every signup of `address`, oldest first (storedAddresses). */
export const storedAs = async (owner: Client, address: string, ownerKey?: string): Promise<string[]> => [
  ...(await storedAddresses(owner, ownerKey, address)).values(),
];

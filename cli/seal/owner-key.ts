/**
 * The owner key, an OpenPGP RSA key pair (pgcrypto wraps to RSA or Elgamal only): the public half in
 * the database, the private half with the owner, given as a file or a password manager's output.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PrivateKey } from 'openpgp';
import { ask, interactive, readText, UsageError } from '../terminal.ts';

const run = promisify(execFile);
/** Loaded when a key is used: a list not sealed is exported without it. */
const openpgp = () => import('openpgp');

export const OWNER_KEY_FILE = 'WAITLIST_OWNER_KEY_FILE';
export const OWNER_KEY_COMMAND = 'WAITLIST_OWNER_KEY_COMMAND';
/** 3072-bit RSA: about 128-bit security (NIST SP 800-57); unwrapping one hour's key takes ~25 ms. */
const RSA_BITS = 3072;

export type OwnerKey = PrivateKey;

/** A new key pair: the private key armored (what the owner keeps), the public key binary (what the database keeps). */
export async function newOwnerKeyPair(): Promise<{ privateKey: string; publicKey: Buffer }> {
  const { generateKey, readKey } = await openpgp();
  const pair = await generateKey({
    type: 'rsa',
    rsaBits: RSA_BITS,
    userIDs: [{ name: 'waitlist owner' }],
    format: 'armored',
  });
  const publicKey = await readKey({ armoredKey: pair.publicKey });
  return { privateKey: pair.privateKey, publicKey: Buffer.from(publicKey.write()) };
}

export async function parseOwnerKey(armored: string, where: string): Promise<OwnerKey> {
  try {
    const key = await (await openpgp()).readPrivateKey({ armoredKey: armored });
    if (!key.isDecrypted()) throw new Error('it is protected by a passphrase; export it without one');
    return key;
  } catch (error) {
    throw new UsageError(`${where} does not hold the owner's private key: ${(error as Error).message}.`);
  }
}

/** The owner's key, from the file or command the environment names, else a file path asked on a terminal. */
export async function ownerKey(purpose: string): Promise<OwnerKey> {
  const file = process.env[OWNER_KEY_FILE];
  const command = process.env[OWNER_KEY_COMMAND];
  if (file) return parseOwnerKey(readText(file, "owner's key"), `The file ${JSON.stringify(file)}`);
  if (command) {
    const { stdout } = await run('/bin/sh', ['-c', command], { maxBuffer: 1 << 20 }).catch((error: Error) => {
      throw new UsageError(`${OWNER_KEY_COMMAND} failed: ${error.message.split('\n')[0]}`);
    });
    return parseOwnerKey(stdout, `The output of ${OWNER_KEY_COMMAND}`);
  }
  if (!interactive()) {
    throw new UsageError(
      `The list is sealed: ${purpose} needs the owner's private key. Set ${OWNER_KEY_FILE} to its file, or ` +
        `${OWNER_KEY_COMMAND} to a command that prints it (your password manager's), or run on a terminal.`,
    );
  }
  const path = (await ask("Path of the owner's private key file: ")).trim();
  return parseOwnerKey(readText(path, "owner's key"), `The file ${JSON.stringify(path)}`);
}

/** A key wrapped by the database (pgp_pub_encrypt_bytea) to the owner's public key, opened. */
export async function unwrap(key: OwnerKey, wrapped: Buffer): Promise<Buffer> {
  const { decrypt, readMessage } = await openpgp();
  const message = await readMessage({ binaryMessage: wrapped });
  const { data } = await decrypt({ message, decryptionKeys: key, format: 'binary' });
  return Buffer.from(data);
}

/** Whether `key` is the private half of the binary public key the database holds. */
export async function matches(key: OwnerKey, publicKey: Buffer): Promise<boolean> {
  const installed = await (await openpgp()).readKey({ binaryKey: publicKey });
  return installed.getFingerprint() === key.getFingerprint();
}

/** `key` wrapped to the binary public key, as pgp_pub_encrypt_bytea would: for a key the database must never hold in clear. */
export async function wrap(publicKey: Buffer, key: Buffer): Promise<Buffer> {
  const { createMessage, encrypt, readKey } = await openpgp();
  const encryptionKeys = await readKey({ binaryKey: publicKey });
  const message = await createMessage({ binary: key });
  return Buffer.from(await encrypt({ message, encryptionKeys, format: 'binary' }));
}

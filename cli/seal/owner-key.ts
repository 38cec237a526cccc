/**
 * A holder's owner key, an OpenPGP RSA key pair (pgcrypto wraps to RSA or Elgamal only): the public half in
 * private.key_holders, the private half with the holder, protected by a passphrase.
 */
import type { PrivateKey } from 'openpgp';
import { outputOf } from '../terminal/secret.ts';
import { ask, askLines, interactive, readText, UsageError } from '../terminal/terminal.ts';

/** Loaded when a key is used: a list not sealed is exported without it. */
const openpgp = () => import('openpgp');

const OWNER_KEY_FILE = 'WAITLIST_OWNER_KEY_FILE';
const OWNER_KEY_COMMAND = 'WAITLIST_OWNER_KEY_COMMAND';
export const PASSPHRASE = 'WAITLIST_OWNER_KEY_PASSPHRASE';
export const PASSPHRASE_COMMAND = 'WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND';
/** 3072-bit RSA: about 128-bit security (NIST SP 800-57); unwrapping one hour's key takes ~25 ms. */
export const RSA_BITS = 3072;
const PASSPHRASE_MIN = 12;
const BEGIN = '-----BEGIN PGP PRIVATE KEY BLOCK-----';
const END = '-----END PGP PRIVATE KEY BLOCK-----';
const HOW_TO_STORE =
  `Give the key whole, from ${BEGIN} to ${END}; a note that rewraps text may break it: store it as a file ` +
  "or your password manager's file attachment instead";

export type OwnerKey = PrivateKey;
/** The keys read without a passphrase (made before keys took one, or exported without): keys check warns. */
export const unprotected = new WeakSet<OwnerKey>();

/** The passphrase from the environment or its command, else asked on a terminal (not shown; a new one twice). */
async function passphrase(question: string, twice = false) {
  if (process.env[PASSPHRASE]) return process.env[PASSPHRASE];
  if (process.env[PASSPHRASE_COMMAND]) return outputOf(PASSPHRASE_COMMAND);
  if (!interactive()) {
    throw new UsageError(
      `The owner key takes a passphrase: set ${PASSPHRASE_COMMAND} to a command that prints it (your password ` +
        `manager's), or ${PASSPHRASE}, or run on a terminal. Never give it as an argument.`,
    );
  }
  const given = await ask(question, true);
  if (twice && (await ask('Again:', true)) !== given) throw new UsageError('The two passphrases differ: nothing made.');
  return given;
}

/** A new key pair: the private key armored, protected by a passphrase, the public key binary. */
export async function newOwnerKeyPair() {
  const given = await passphrase(`A passphrase for the owner key (at least ${PASSPHRASE_MIN} characters):`, true);
  if ([...given].length < PASSPHRASE_MIN) throw new UsageError(`The passphrase is under ${PASSPHRASE_MIN} characters.`);
  const { generateKey, readKey } = await openpgp();
  const userIDs = [{ name: 'waitlist owner' }];
  const pair = await generateKey({ type: 'rsa', rsaBits: RSA_BITS, userIDs, passphrase: given, format: 'armored' });
  const publicKey = Buffer.from((await readKey({ armoredKey: pair.publicKey })).write());
  return { privateKey: pair.privateKey, publicKey, passphrase: given };
}

/** An armored key whose line breaks a note joined or doubled, laid out again (RFC 9580, 6.2); else as given. */
function relaid(text: string) {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return text;
  const parts = /^([A-Za-z0-9+/]+={0,2})(=[A-Za-z0-9+/]{4})?$/.exec(
    text.slice(start + BEGIN.length, end).replace(/\s/g, ''),
  );
  if (!parts) return text;
  return [BEGIN, '', ...parts[1].match(/.{1,64}/g)!, ...(parts[2] ? [parts[2]] : []), END, ''].join('\n');
}

/** The private key in `text`, opened with its passphrase (`known`, else asked); a UsageError says why not. */
export async function parseOwnerKey(text: string, where: string, known?: string): Promise<OwnerKey> {
  const { decryptKey, readPrivateKey } = await openpgp();
  const key = await readPrivateKey({ armoredKey: text })
    .catch(() => readPrivateKey({ armoredKey: relaid(text) }))
    .catch((error: Error) => {
      throw new UsageError(`${where} does not hold a private key (${error.message}). ${HOW_TO_STORE}.`);
    });
  if (key.isDecrypted()) {
    unprotected.add(key);
    return key;
  }
  const given = known ?? (await passphrase(`The passphrase of the owner key in ${where}:`));
  return decryptKey({ privateKey: key, passphrase: given }).catch(() => {
    throw new UsageError(`That passphrase does not open the owner key in ${where}.`);
  });
}

/**
 * A holder's private key: `file`, else the file or command the environment names, else asked on a terminal (a path, or
 * the key itself pasted; neither is shown).
 */
export async function ownerKey(purpose: string, file = process.env[OWNER_KEY_FILE]): Promise<OwnerKey> {
  const fromFile = (path: string) => parseOwnerKey(readText(path, "owner's key"), `the file ${JSON.stringify(path)}`);
  if (file) return fromFile(file);
  const command = process.env[OWNER_KEY_COMMAND];
  if (command) return parseOwnerKey(await outputOf(OWNER_KEY_COMMAND), `the output of ${OWNER_KEY_COMMAND}`);
  if (!interactive()) {
    throw new UsageError(
      `The list is sealed: ${purpose} needs a holder's private key. Set ${OWNER_KEY_FILE} to its file, or ` +
        `${OWNER_KEY_COMMAND} to a command that prints it (your password manager's), or run on a terminal.`,
    );
  }
  const answer = await askLines(
    "Path of the owner's private key file, or the key itself pasted (neither is shown):",
    (first, line) => !first.includes(BEGIN) || line.includes(END),
  );
  return answer.includes(BEGIN) ? parseOwnerKey(answer, 'the key pasted') : fromFile(answer.trim());
}

/** A key wrapped by the database (pgp_pub_encrypt_bytea) to a holder's public key, opened. */
export async function unwrap(key: OwnerKey, wrapped: Buffer): Promise<Buffer> {
  const { decrypt, readMessage } = await openpgp();
  const message = await readMessage({ binaryMessage: wrapped });
  const { data } = await decrypt({ message, decryptionKeys: key, format: 'binary' });
  return Buffer.from(data);
}

/** Whether `key` is the private half of the binary public key the database holds. */
export async function matches(key: OwnerKey, publicKey: Buffer) {
  const installed = await (await openpgp()).readKey({ binaryKey: publicKey });
  return installed.getFingerprint() === key.getFingerprint();
}

/**
 * `key` wrapped to the binary public key, as pgp_pub_encrypt_bytea would: for a key the database must never hold in
 * clear.
 */
export async function wrap(publicKey: Buffer, key: Buffer): Promise<Buffer> {
  const { createMessage, encrypt, readKey } = await openpgp();
  const encryptionKeys = await readKey({ binaryKey: publicKey });
  const message = await createMessage({ binary: key });
  return Buffer.from(await encrypt({ message, encryptionKeys, format: 'binary' }));
}

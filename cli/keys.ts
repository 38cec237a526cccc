import { readFile, rm, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from './connect/database.ts';
import { loggingRisks } from './health/logging.ts';
import { compact, COMPACT_LATER, compactSealed } from './keys-compact.ts';
import { ownerKeyHeld, publicKeyDigest } from './seal/held.ts';
import { installOwnerKey } from './seal/install.ts';
import { newOwnerKeyPair, type OwnerKey, parseOwnerKey } from './seal/owner-key.ts';
import { installedPublicKey } from './seal/sealed-list.ts';
import { say, UsageError } from './terminal.ts';

/** Sealing a long list and rewriting its tables take longer than a short query may. */
const LONG = { longQueries: true };

/** Writes the private key to a new file only its owner may read; a UsageError if the file exists. */
async function writeKeyFile(path: string, armored: string): Promise<void> {
  try {
    await writeFile(path, armored, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const exists = (error as { code?: string }).code === 'EEXIST';
    throw new UsageError(
      exists
        ? `${path} exists already: name a new file for the private key (nothing was changed).`
        : `Cannot write ${path}: ${(error as Error).message}`,
    );
  }
}

/**
 * Makes the owner's key pair, writes the private key to `keyFile`, and runs `work` with the public
 * key and the private key as read back from the file. `work` calls `installed()` once the database
 * holds the public key for good, then seals and compacts. A `work` that fails takes the file away
 * again only if the database certainly does not hold the public key (asked afresh: a COMMIT whose
 * reply was lost may have installed it); otherwise the file is kept whatever happens: from then on
 * it alone opens what the database seals.
 */
async function withNewOwnerKey<T>(
  keyFile: string,
  work: (publicKey: Buffer, saved: OwnerKey, installed: () => void) => Promise<T>,
): Promise<T> {
  const pair = await newOwnerKeyPair();
  await writeKeyFile(keyFile, pair.privateKey);
  let inUse = false;
  try {
    // Read back as saved: what opens the list from now on is the file, not this process's copy.
    const saved = await parseOwnerKey(await readFile(keyFile, 'utf8'), `The saved file ${keyFile}`);
    return await work(pair.publicKey, saved, () => (inUse = true));
  } catch (error) {
    const held = inUse || (await ownerKeyHeld(pair.publicKey));
    if (held === false) {
      await rm(keyFile, { force: true });
      throw error;
    }
    keptPrivately(keyFile);
    if (held) {
      say('The database holds your public key already, so keep that file. The command failed after installing');
      say(`it: to seal what is left and clean up after sealing, run (safe to run again): ${COMPACT_LATER}`);
    } else {
      say('The command failed, and then could not ask the database whether it holds your public key: it may, if');
      say('the connection failed as the key was being installed, so the file is kept. In the SQL editor run');
      say(
        `  select encode(sha256(public_key), 'hex') = '${publicKeyDigest(pair.publicKey)}' as yours from private.owner_key;`,
      );
      say(`If it says true, keep the file and run ${COMPACT_LATER}; if no row or false, delete the file.`);
    }
    throw error;
  }
}

/** Sealing keeps addresses out of the tables and the WAL, not out of a log that records them as they arrive. */
async function warnAboutLogs(db: pg.Client): Promise<void> {
  for (const risk of await loggingRisks(db)) say(`Warning: the server log receives addresses: ${risk}`);
}

function keptPrivately(keyFile: string): void {
  say(`Wrote your private key to ${keyFile} (readable by you only); nothing else holds it. It alone opens`);
  say('the list: move it into your password manager or onto offline storage, then delete that file.');
}

async function init(options: { keyFile?: string }): Promise<void> {
  const { keyFile } = options;
  if (!keyFile) throw new UsageError('Name a new file for your private key: keys init --key-file <file>.');
  await withDatabase(async (db) => {
    if (await installedPublicKey(db)) throw new UsageError('The list is sealed already.');
    await warnAboutLogs(db);
    const sealed = await withNewOwnerKey(keyFile, async (publicKey, saved, installed) => {
      const sealed = await installOwnerKey(db, publicKey, saved, installed);
      await compact(db);
      return sealed;
    });
    keptPrivately(keyFile);
    say(`Sealed ${sealed} stored addresses under a key made here and wrapped to yours. From now on every signup`);
    say('is sealed with a key of its hour, which the database holds in clear only during that hour.');
  }, LONG);
}

export function keysCommand(): Command {
  const keys = new Command('keys').description(
    'Seal the list at rest with a key that only you hold (docs/operations.md, "Sealing the list").',
  );
  keys.addCommand(
    new Command('init')
      .description(
        'Make your OpenPGP key pair, write the private key once to a new file only you may read, install the public ' +
          'key, and seal every stored address (once per list).',
      )
      .option('--key-file <file>', 'the new file for your private key (refused if it exists)')
      .action(init)
      .exitOverride(),
  );
  keys.addCommand(
    new Command('compact')
      .description(
        'Redo what keys init does after sealing, if it could not finish it: seal any address ' +
          "still stored as typed, rewrite the list's tables and its column statistics. Safe to run again.",
      )
      .action(compactSealed)
      .exitOverride(),
  );
  return keys;
}

import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from './connect/database.ts';
import { loggingRisks } from './health/logging.ts';
import { compact, COMPACT_LATER, compactSealed } from './keys-compact.ts';
import { inTransaction } from './list/signups.ts';
import { installOwnerKey } from './seal/install.ts';
import { newOwnerKeyPair, parseOwnerKey } from './seal/owner-key.ts';
import { installedPublicKey } from './seal/open.ts';
import { say, UsageError } from './terminal.ts';

/** Writes the private key to a new file only its owner may read; a UsageError if the file exists. */
async function writeKeyFile(path: string, armored: string): Promise<void> {
  await writeFile(path, armored, { flag: 'wx', mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
    const exists = `${path} exists already: name a new file for the private key (nothing was changed).`;
    throw new UsageError(error.code === 'EEXIST' ? exists : `Cannot write ${path}: ${error.message}`);
  });
}

/**
 * Whether the database holds `publicKey`, asked afresh once the connection that installed it failed
 * (a COMMIT's reply may be lost); a SHARE lock waits for that transaction. null: could not ask.
 */
async function ownerKeyHeld(publicKey: Buffer): Promise<boolean | null> {
  const held = (db: pg.Client) =>
    inTransaction(db, async () => {
      await db.query(`set local lock_timeout = '20s'`);
      await db.query('lock table private.owner_key in share mode');
      const { rows } = await db.query('select exists (select from private.owner_key where public_key = $1)', [
        publicKey,
      ]);
      return rows[0].exists as boolean;
    });
  return withDatabase(held).catch(() => null);
}

function keptPrivately(keyFile: string): void {
  say(`Wrote your private key to ${keyFile} (readable by you only); nothing else holds it. It alone opens`);
  say('the list: move it into your password manager or onto offline storage, then delete that file.');
}

/** After a failure the key file goes only if the database certainly does not hold its public half. */
async function afterFailure(keyFile: string, publicKey: Buffer, installed: boolean): Promise<void> {
  const held = installed || (await ownerKeyHeld(publicKey));
  if (held === false) return rm(keyFile, { force: true });
  keptPrivately(keyFile);
  if (held) {
    say('The database holds your public key already, so keep that file. The command failed after installing');
    say(`it: to seal what is left and clean up after sealing, run (safe to run again): ${COMPACT_LATER}`);
    return;
  }
  const digest = createHash('sha256').update(publicKey).digest('hex');
  say('The command failed, and then could not ask the database whether it holds your public key: it may, if');
  say('the connection failed as the key was being installed, so the file is kept. In the SQL editor run');
  say(`  select encode(sha256(public_key), 'hex') = '${digest}' as yours from private.owner_key;`);
  say(`If it says true, keep the file and run ${COMPACT_LATER}; if no row or false, delete the file.`);
}

/** `keys init`: the owner key made, its private half written to `keyFile`, the public half installed; sealed, compacted. */
export async function init({ keyFile }: { keyFile?: string }): Promise<void> {
  if (!keyFile) throw new UsageError('Name a new file for your private key: keys init --key-file <file>.');
  await withDatabase(
    async (db) => {
      if (await installedPublicKey(db)) throw new UsageError('The list is sealed already.');
      // Sealing keeps addresses out of the tables and the WAL, not out of a log that records them as they arrive.
      for (const risk of await loggingRisks(db)) say(`Warning: the server log receives addresses: ${risk}`);
      const pair = await newOwnerKeyPair();
      await writeKeyFile(keyFile, pair.privateKey);
      let installed = false;
      let sealed: number;
      try {
        // Read back as saved: what opens the list from now on is the file, not this process's copy.
        const saved = await parseOwnerKey(await readFile(keyFile, 'utf8'), `The saved file ${keyFile}`);
        sealed = await installOwnerKey(db, pair.publicKey, saved);
        installed = true;
        await compact(db);
      } catch (error) {
        await afterFailure(keyFile, pair.publicKey, installed);
        throw error;
      }
      keptPrivately(keyFile);
      say(`Sealed ${sealed} stored addresses under a key made here and wrapped to yours. From now on every signup`);
      say('is sealed with a key of its hour, which the database holds in clear only during that hour.');
    },
    { longQueries: true }, // sealing a long list and rewriting its tables take longer than a short query may
  );
}

export function keysCommand(): Command {
  const keys = new Command('keys')
    .exitOverride() // before its subcommands, which inherit it
    .description('Seal the list at rest with a key that only you hold (docs/operations.md, "Sealing the list").');
  keys
    .command('init')
    .description(
      'Make your OpenPGP key pair, write the private key once to a new file only you may read, install the public ' +
        'key, and seal every stored address (once per list).',
    )
    .option('--key-file <file>', 'the new file for your private key (refused if it exists)')
    .action(init);
  keys
    .command('compact')
    .description(
      'Redo what keys init does after sealing, if it could not finish it: seal any address ' +
        "still stored as typed, rewrite the list's tables and its column statistics. Safe to run again.",
    )
    .action(compactSealed);
  return keys;
}

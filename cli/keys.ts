import { readFile, rm, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from './connect/database.ts';
import { loggingRisks } from './health/logging.ts';
import { check } from './keys/check.ts';
import { compact, COMPACT_LATER, compactSealed } from './keys/compact.ts';
import { add, list, remove } from './keys/holders.ts';
import { inTransaction } from './list/signups.ts';
import { installOwnerKey } from './seal/install.ts';
import { newOwnerKeyPair, parseOwnerKey } from './seal/owner-key.ts';
import { holders } from './seal/open.ts';
import { interactive, say, UsageError } from './terminal.ts';

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
      await db.query('lock table private.key_holders in share mode');
      const { rows } = await db.query('select exists (select from private.key_holders where public_key = $1)', [
        publicKey,
      ]);
      return rows[0].exists as boolean;
    });
  return withDatabase(held).catch(() => null);
}

function keptPrivately(keyFile: string): void {
  say(`Wrote your private key to ${keyFile} (readable by you only, protected by your passphrase); nothing else`);
  say('holds it. Move it into your password manager and onto offline storage, then delete that file.');
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
  say('The command failed, and then could not ask the database whether it holds your public key: it may, if');
  say(`the connection failed as the key was being installed, so the file is kept. keys check --key-file ${keyFile}`);
  say(`tells: if it says the key opens the list, keep the file and run ${COMPACT_LATER}; otherwise delete it.`);
}

/** `keys init`: the owner key made, its private half written to `keyFile`, the public half installed; sealed, compacted. */
export async function init({ keyFile }: { keyFile?: string }): Promise<void> {
  if (!keyFile) throw new UsageError('Name a new file for your private key: keys init --key-file <file>.');
  await withDatabase(
    async (db) => {
      if ((await holders(db)).length) throw new UsageError('The list is sealed already.');
      // Sealing keeps addresses out of the tables and the WAL, not out of a log that records them as they arrive.
      for (const risk of await loggingRisks(db)) say(`Warning: the server log receives addresses: ${risk}`);
      const pair = await newOwnerKeyPair();
      await writeKeyFile(keyFile, pair.privateKey);
      let installed = false;
      let sealed: number;
      try {
        // Read back as saved: what opens the list from now on is the file, not this process's copy.
        const saved = await parseOwnerKey(
          await readFile(keyFile, 'utf8'),
          `the saved file ${keyFile}`,
          pair.passphrase,
        );
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
  if (!interactive()) {
    say('Left to do: store the key, then prove the stored copy opens the list with npm run waitlist -- keys check');
    say('(health says so until a check passes).');
    return;
  }
  say('Now store the key (password manager, offline copy); then give that stored copy here to check it (Ctrl-C:');
  say('later, with npm run waitlist -- keys check).');
  await check({});
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
    .command('check')
    .description(
      "Prove that a stored copy of a holder's key opens the list (every hour key, a seal of each; no address " +
        'shown) and record when; give it as --key-file, WAITLIST_OWNER_KEY_FILE or _COMMAND, or paste it.',
    )
    .option('--key-file <file>', 'the stored copy to check')
    .action(check);
  keys
    .command('add')
    .description(
      "Add a key holder: every hour key is wrapped to their public key too (takes a holder's private key). The " +
        'holder makes the key pair on their own machine and sends the public key only.',
    )
    .requiredOption('--public-key <file>', 'their OpenPGP public key, armored (RSA, 3072 bits or more)')
    .action(add);
  keys
    .command('remove')
    .description("Remove a key holder: their key opens nothing sealed from now on (the others' keep the list).")
    .argument('<key-id>', 'as keys holders lists it')
    .option('-y, --yes', 'do not ask first (required off a terminal)')
    .action(remove);
  keys.command('holders').description("List the holders' key ids and when each was last checked.").action(list);
  keys
    .command('compact')
    .description(
      'Redo what keys init does after sealing, if it could not finish it: seal any address ' +
        "still stored as typed, rewrite the list's tables and its column statistics. Safe to run again.",
    )
    .action(compactSealed);
  return keys;
}

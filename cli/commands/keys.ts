import { readFile, rm } from 'node:fs/promises';
import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from '../connect/database.ts';
import { loggingRisks } from './health/logging.ts';
import { check } from './keys/check.ts';
import { compact, COMPACT_LATER, compactSealed } from './keys/compact.ts';
import { add, list, remove } from './keys/holders.ts';
import { inTransaction } from '../connect/queries.ts';
import { installOwnerKey } from './keys/install.ts';
import { newOwnerKeyPair, parseOwnerKey } from '../seal/owner-key.ts';
import { holders } from '../seal/open.ts';
import { interactive, say, UsageError, writeNewFile } from '../terminal/terminal.ts';

function keptPrivately(keyFile: string): void {
  say(`Wrote your private key to ${keyFile} (readable by you only, protected by your passphrase); nothing else`);
  say('holds it. Move it into your password manager and onto offline storage, then delete that file.');
}

/** After a failure the key file goes only if the database, asked afresh, certainly does not hold its public half. */
async function afterFailure(keyFile: string, publicKey: Buffer, installed: boolean): Promise<void> {
  const asked = (db: pg.Client) =>
    inTransaction(db, async () => {
      // A SHARE lock waits for the install's transaction (its COMMIT's reply may be lost).
      await db.query(`set local lock_timeout = '20s'; lock table private.key_holders in share mode`);
      return (await holders(db)).some((holder) => holder.publicKey.equals(publicKey));
    });
  const held = installed || (await withDatabase(asked).catch(() => null));
  if (held === false) return rm(keyFile, { force: true });
  keptPrivately(keyFile);
  if (held) say(`The database holds your public key already, so keep that file; then run ${COMPACT_LATER}.`);
  else {
    say('The command failed, and then could not ask the database whether it holds your public key: it may, so the');
    say(`file is kept. keys check --key-file ${keyFile} tells: if the key opens the list, keep the file and run`);
    say(`${COMPACT_LATER}; otherwise delete it.`);
  }
}

/** `keys init`: the owner key made, its private half written to `keyFile`, the public half installed; sealed, compacted. */
/** `later`: the stored copy is checked later, with keys check (setup says so at its end). */
export async function init({ keyFile, later }: { keyFile?: string; later?: boolean }): Promise<void> {
  if (!keyFile) throw new UsageError('Name a new file for your private key: keys init --key-file <file>.');
  await withDatabase(
    async (db) => {
      if ((await holders(db)).length) throw new UsageError('The list is sealed already.');
      // Sealing keeps addresses out of the tables and the WAL, not out of a log that records them as they arrive.
      for (const risk of await loggingRisks(db)) say(`Warning: the server log receives addresses: ${risk}`);
      const pair = await newOwnerKeyPair();
      await writeNewFile(keyFile, pair.privateKey, 'the private key');
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
  if (later) return;
  if (!interactive()) {
    say('Left to do: store the key, then prove the stored copy opens the list with npm run waitlist -- keys check');
    say('(health says so until a check passes).');
    return;
  }
  say('Now store the key; then give the stored copy here to check it (Ctrl-C: later, with keys check).');
  await check({});
}

export function keysCommand(): Command {
  const keys = new Command('keys')
    .exitOverride() // before its subcommands, which inherit it
    .description('Seal the list at rest with a key that only you hold (docs/operations.md, "Sealing the list").');
  keys
    .command('init')
    .description('Make your key pair, write the private key to a new file, install the public key, seal the list.')
    .option('--key-file <file>', 'the new file for your private key (refused if it exists)')
    .action(init);
  keys
    .command('check')
    .description("Prove that a stored copy of a holder's key opens the list, and record when (no address shown).")
    .option('--key-file <file>', 'the stored copy (else WAITLIST_OWNER_KEY_FILE or _COMMAND, or pasted)')
    .action(check);
  keys
    .command('add')
    .description("Add a key holder: every hour key wrapped to their public key too (takes a holder's key).")
    .requiredOption('--public-key <file>', 'their OpenPGP public key, armored (RSA, 3072 bits or more; required)')
    .action(add);
  keys
    .command('remove')
    .description('Remove a key holder (however their key was exported): it opens nothing sealed from now on.')
    .argument('<key-id>', 'as keys holders lists it')
    .option('-y, --yes', 'do not ask first (required off a terminal)')
    .action(remove);
  keys.command('holders').description("List the holders' key ids and when each was last checked.").action(list);
  keys
    .command('compact')
    .description('Redo what keys init does after sealing if it could not finish it. Safe to run again.')
    .action(compactSealed);
  return keys;
}

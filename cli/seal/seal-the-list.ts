/**
 * Sealing the list the first time (`keys init`, and setup's owner-key step): the owner key made, its private half
 * written to a new file, the public half installed, every stored address sealed, the tables compacted.
 */
import { readFile, rm } from 'node:fs/promises';
import type pg from 'pg';
import { withDatabase } from '../connect/database.ts';
import { inTransaction } from '../connect/queries.ts';
import { loggingRisks } from '../database/logging.ts';
import { say, UsageError, writeNewFile } from '../terminal/terminal.ts';
import { compact, COMPACT_LATER } from './compact.ts';
import { installOwnerKey } from './install.ts';
import { holders } from './open.ts';
import { newOwnerKeyPair, parseOwnerKey } from './owner-key.ts';

function keptPrivately(keyFile: string) {
  say(`Wrote your private key to ${keyFile} (readable by you only, protected by your passphrase); nothing else`);
  say('holds it. Move it into your password manager and onto offline storage, then delete that file.');
}

/** After a failure the key file goes only if the database, asked afresh, certainly does not hold its public half. */
async function afterFailure(keyFile: string, publicKey: Buffer, installed: boolean) {
  const asked = (db: pg.Client) =>
    inTransaction(db, async () => {
      // A SHARE lock waits for the install's transaction (its COMMIT's reply may be lost).
      await db.query(`set local lock_timeout = '20s'; lock table private.key_holders in share mode`);
      return (await holders(db)).some((holder) => holder.publicKey.equals(publicKey));
    });
  const held = installed || (await withDatabase(asked).catch(() => null));
  if (held === false) {
    return rm(keyFile, { force: true });
  }
  keptPrivately(keyFile);
  if (held) {
    say(`The database holds your public key already, so keep that file; then run ${COMPACT_LATER}.`);
  } else {
    say('The command failed, and then could not ask the database whether it holds your public key: it may, so the');
    say(`file is kept. keys check --key-file ${keyFile} tells: if the key opens the list, keep the file and run`);
    say(`${COMPACT_LATER}; otherwise delete it.`);
  }
}

/** Seals the list under a new owner key whose private half goes to `keyFile`, a new file. */
export async function sealTheList(keyFile: string) {
  await withDatabase(
    async (db) => {
      if ((await holders(db)).length) {
        throw new UsageError('The list is sealed already.');
      }
      // Sealing keeps addresses out of the tables and the WAL, not out of a log that records them as they arrive.
      for (const risk of await loggingRisks(db)) {
        say(`Warning: the server log receives addresses: ${risk}`);
      }
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
}

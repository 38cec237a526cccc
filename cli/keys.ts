import { createInterface } from 'node:readline/promises';
import { Command } from 'commander';
import type pg from 'pg';
import { withDatabase } from './connect/database.ts';
import { Opener } from './seal/open.ts';
import { Ratchet } from './seal/ratchet.ts';
import { formatRecoveryKey, newRecoveryKey } from './seal/recovery-key.ts';
import { recoveryKey } from './seal/recovery-input.ts';
import { compactList, resealList } from './seal/reseal.ts';
import { checkedRatchet, sealState } from './seal/sealed-list.ts';
import { Cancelled, interactive, out, say, UsageError } from './terminal.ts';

const TYPED_BACK = 8;
/** Sealing a long list and rewriting its tables take longer than a short query may. */
const LONG = { longQueries: true };

/** Prints the key once, on stdout, and on a terminal has the owner type its end back. */
async function handOver(key: Buffer, yes: boolean | undefined): Promise<void> {
  const written = formatRecoveryKey(key);
  say('Your recovery key follows, printed this once. Only it opens the list: the database never holds it.');
  say('Keep it in your password manager and on paper somewhere safe; lose it, and every address older than');
  say('the current hour is lost with it.');
  out(written);
  if (yes) return;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const typed = await prompt.question(`Saved? Type its last ${TYPED_BACK} characters to go on: `);
      if (typed.trim() === written.slice(-TYPED_BACK)) return;
      say('That is not how the key ends.');
    }
  } finally {
    prompt.close();
  }
  throw new Cancelled('Nothing changed; the key above is not used: discard it.');
}

function needsConfirmation(yes: boolean | undefined): void {
  if (!yes && !interactive()) {
    throw new UsageError('Not on a terminal: add --yes to confirm you will save the key printed on standard output.');
  }
}

/** After sealing: no old row version keeps what was just sealed. */
async function compact(db: pg.Client): Promise<void> {
  if (!(await compactList(db))) {
    say('The list was busy: its old row versions are still on disk. At a quiet moment, in the SQL editor:');
    say('  vacuum (full, analyze) public.waiting_list, private.waiting_list_keys;');
  }
}

async function init(options: { yes?: boolean }): Promise<void> {
  needsConfirmation(options.yes);
  await withDatabase(async (db) => {
    if ((await sealState(db)).started) {
      throw new UsageError(
        'The list is sealed already. To replace its recovery key: keys rotate (needs the current one).',
      );
    }
    const key = newRecoveryKey();
    await handOver(key, options.yes);
    const sealed = await resealList(db, null, new Ratchet(key));
    await compact(db);
    say(`Sealed ${sealed} stored addresses. From now on every signup is sealed; the key the database`);
    say("holds changes every hour and opens only that hour's signups.");
  }, LONG);
}

async function rotate(options: { yes?: boolean }): Promise<void> {
  needsConfirmation(options.yes);
  await withDatabase(async (db) => {
    const state = await sealState(db);
    if (!state.started) throw new UsageError('The list is not sealed yet: run keys init.');
    const old = new Opener(checkedRatchet(await recoveryKey('keys rotate'), state));
    const key = newRecoveryKey();
    await handOver(key, options.yes);
    const sealed = await resealList(db, old, new Ratchet(key));
    await compact(db);
    say(`Sealed ${sealed} addresses under the new key. The old recovery key opens nothing from now on,`);
    say('and a key taken from the database before now derives nothing that is used any more.');
  }, LONG);
}

export function keysCommand(): Command {
  const keys = new Command('keys').description(
    'Seal the list at rest with a recovery key that only you hold (docs/operations.md, "Sealing the list").',
  );
  keys.addCommand(
    new Command('init')
      .description('Make the recovery key, print it once, and seal every stored address (once per list).')
      .option('-y, --yes', 'off a terminal: confirms you save the key printed on standard output')
      .action(init)
      .exitOverride(),
  );
  keys.addCommand(
    new Command('rotate')
      .description(
        'Replace the recovery key (lost control of the old one, or of the database): every address is sealed ' +
          `again under a new key. Needs the current key (WAITLIST_RECOVERY_KEY, or typed).`,
      )
      .option('-y, --yes', 'off a terminal: confirms you save the new key printed on standard output')
      .action(rotate)
      .exitOverride(),
  );
  return keys;
}

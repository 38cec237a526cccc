/** `waitlist keys`: the command and its six subcommands, each in its own file of keys/. */
import { Command } from 'commander';
import { add } from './keys/add.ts';
import { check } from './keys/check.ts';
import { compactSealed } from './keys/compact.ts';
import { list } from './keys/holders.ts';
import { init } from './keys/init.ts';
import { remove } from './keys/remove.ts';

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

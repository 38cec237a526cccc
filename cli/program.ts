/** The waitlist command (cli/main.js checks the Node version, then loads this); exit codes: EXIT in terminal.ts. */
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands.ts';
import { explainDatabaseError } from './connect/database-errors.ts';
import { PASSPHRASE, PASSPHRASE_COMMAND } from './seal/owner-key.ts';
import { ENV_FILE, envFileValues } from './connect/env-file.ts';
import { Cancelled, EXIT, EXIT_CODES, say, UsageError } from './terminal/terminal.ts';

// DATABASE_URL and SMTP_URL may live in .env.local (git-ignored); the shell's values win. Not the
// owner key's passphrase, nor a command that prints it: beside the key's command, whoever reads the
// file would open the list.
const passphraseInFile = [PASSPHRASE, PASSPHRASE_COMMAND].find((name) => envFileValues()[name]);
if (passphraseInFile) {
  say(`waitlist: ${ENV_FILE} holds ${passphraseInFile}: delete that line (whoever reads the file opens the list).`);
  say(`Keep the passphrase in your password manager and set ${PASSPHRASE_COMMAND} to its command that prints`);
  say('it (in your shell, not in .env.local), or run on a terminal and type it when asked.');
  process.exit(EXIT.usage);
}
if (existsSync(ENV_FILE)) process.loadEnvFile(ENV_FILE);
// Every connection verifies its certificate, whatever the shell or .env.local say (child tools too).
delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;

const program = new Command('waitlist')
  .description('Count, export, erase and email the waiting list. Connects with DATABASE_URL.')
  .addHelpText('after', `\n${EXIT_CODES}`)
  .showHelpAfterError('(add --help for usage)')
  .exitOverride();

// The first word not starting with - names the command: only its module is loaded (all of them for --help).
const named = process.argv.slice(2).find((word) => !word.startsWith('-'));
const loads = named && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]] : Object.values(COMMANDS);
for (const load of loads) program.addCommand((await load()).exitOverride());

try {
  await program.parseAsync();
} catch (caught) {
  const error = explainDatabaseError(caught);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  else if ((error as NodeJS.ErrnoException).code !== 'EPIPE') {
    // (EPIPE: the reader went away, e.g. `| head`: nothing left to say.)
    say(error instanceof Cancelled ? message : `waitlist: ${message}`);
    process.exitCode = error instanceof UsageError ? EXIT.usage : EXIT.failed;
  }
}

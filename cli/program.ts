/**
 * The waitlist command's program (cli/main.js checks the Node version, then loads this): the
 * owner's side of the waiting list (docs/operations.md). Exit codes: EXIT in terminal.ts.
 */
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { baselineCommand } from './baseline.ts';
import { skipTlsVerify } from './connect/database.ts';
import { explainDatabaseError } from './connect/database-errors.ts';
import { countCommand } from './count.ts';
import { dailyCommand } from './daily.ts';
import { eraseCommand } from './erase.ts';
import { exportCommand } from './export.ts';
import { healthCommand } from './health.ts';
import { keysCommand } from './keys.ts';
import { limitsCommand } from './limits.ts';
import { notifyCommand } from './notify/command.ts';
import { originsCommand } from './origins.ts';
import { suppressCommand } from './suppress.ts';
import { Cancelled, EXIT, EXIT_CODES, say, UsageError } from './terminal.ts';

// DATABASE_URL and SMTP_URL may live in .env.local (git-ignored); the shell's values win.
if (existsSync('.env.local')) process.loadEnvFile('.env.local');

const program = new Command('waitlist')
  .description('Count, export, erase and email the waiting list. Connects with DATABASE_URL.')
  .option(
    '--insecure-skip-tls-verify',
    "connect over TLS without verifying the database's or the SMTP server's certificate (anyone on the path " +
      'could read or change what is sent); plain connections stay refused except to this machine',
  )
  .addHelpText('after', `\n${EXIT_CODES}`)
  .showHelpAfterError('(add --help for usage)')
  .hook('preAction', (_program, action) => void skipTlsVerify(Boolean(action.optsWithGlobals().insecureSkipTlsVerify)))
  .exitOverride();

for (const command of [
  countCommand(),
  dailyCommand(),
  exportCommand(),
  eraseCommand(),
  suppressCommand(),
  limitsCommand(),
  originsCommand(),
  notifyCommand(),
  healthCommand(),
  keysCommand(),
  baselineCommand(),
]) {
  program.addCommand(command.exitOverride());
}

try {
  await program.parseAsync();
} catch (caught) {
  const error = explainDatabaseError(caught);
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
    // The reader went away (e.g. `| head`): nothing left to say.
  } else if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof UsageError) {
    say(`waitlist: ${error.message}`);
    process.exitCode = EXIT.usage;
  } else if (error instanceof Cancelled) {
    say(error.message);
    process.exitCode = EXIT.failed;
  } else {
    say(`waitlist: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT.failed;
  }
}

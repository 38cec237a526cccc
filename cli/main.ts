/**
 * npm run waitlist -- <command>: the owner's side of the waiting list (docs/operations.md).
 * Exit status: 0 done, 1 failed, stopped or declined, 2 wrong usage or setup, 3 notify left something to send.
 */
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { countCommand } from './count.ts';
import { dailyCommand } from './daily.ts';
import { eraseCommand } from './erase.ts';
import { exportCommand } from './export.ts';
import { healthCommand } from './health.ts';
import { keysCommand } from './keys.ts';
import { limitsCommand } from './limits.ts';
import { notifyCommand } from './notify.ts';
import { suppressCommand } from './suppress.ts';
import { Cancelled, EXIT, say, UsageError } from './terminal.ts';

// DATABASE_URL and SMTP_URL may live in .env.local (git-ignored); the shell's values win.
if (existsSync('.env.local')) process.loadEnvFile('.env.local');

const program = new Command('waitlist')
  .description('Count, export, erase and email the waiting list. Connects with DATABASE_URL.')
  .showHelpAfterError('(add --help for usage)')
  .exitOverride();

for (const command of [
  countCommand(),
  dailyCommand(),
  exportCommand(),
  eraseCommand(),
  suppressCommand(),
  limitsCommand(),
  notifyCommand(),
  healthCommand(),
  keysCommand(),
]) {
  program.addCommand(command.exitOverride());
}

try {
  await program.parseAsync();
} catch (error) {
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

import { Command } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { addOrigin, allowedOrigins, originOf, removeOrigin, SHAPE } from '../list/guard.ts';
import { json, out, say, UsageError } from '../terminal/terminal.ts';

function print(origins: string[]) {
  if (origins.length) for (const origin of origins) out(origin);
  else say('No origin is listed: pages on every origin may sign up.');
}

/** The origin given, `change` done to it, and the list after. */
function changeOrigin(given: string, change: typeof addOrigin) {
  const origin = originOf(given);
  return withDatabase(async (db) => ({ origin, done: await change(db, origin), origins: await allowedOrigins(db) }));
}

export function originsCommand(): Command {
  const command = new Command('origins')
    .exitOverride()
    .description('The origins whose pages may sign up: while none is listed, every origin; else those alone.');
  command
    .command('list')
    .description('Print the allowed origins, one per line.')
    .option('--json', 'print them as a JSON array')
    .action(async (options: { json?: boolean }) => {
      const origins = await withDatabase(allowedOrigins);
      if (options.json) json(origins);
      else print(origins);
    });
  command
    .command('add')
    .description(`Allow an origin (${SHAPE}).`)
    .argument('<origin>')
    .action(async (given: string) => {
      const { origin, done: added, origins } = await changeOrigin(given, addOrigin);
      say(added ? `Added ${origin}.` : `${origin} was already allowed.`);
      if (origins.length === 1 && added) say('From now on, a browser on any other origin is refused (403).');
      print(origins);
    });
  command
    .command('remove')
    .description('Stop allowing an origin.')
    .argument('<origin>')
    .action(async (given: string) => {
      const { origin, done: removed, origins } = await changeOrigin(given, removeOrigin);
      if (!removed) {
        throw new UsageError(`${origin} is not an allowed origin; they are: ${origins.join(', ') || 'none'}.`);
      }
      say(`Removed ${origin}.${origins.length ? '' : ' None is left: a page on any origin may add signups again.'}`);
      print(origins);
    });
  return command;
}

// @vitest-environment node
/**
 * Every command line the docs give is one the command takes: each `npm run <script>` names a script of
 * package.json, and each `npm run waitlist -- …` (and `npm run deploy -- …`) parses against the
 * commands' own definitions (commander): an unknown command or option fails, a missing required one
 * too. A placeholder (`<ref>`) stands for a value; `[…]` marks an optional part, left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { expect, it } from 'vitest';
import { COMMANDS } from '../cli/commands.ts';

const DOCS = [
  'README.md',
  ...['docs', 'supabase'].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`),
  ),
];
const SCRIPTS = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts);

/** Every `npm run …` in the docs' code (spans and blocks), with a backslash-continued line joined, comments cut. */
function commandLines(): { where: string; words: string[] }[] {
  return DOCS.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
      .replaceAll('\\\n', ' ')
      .replace(/<[^<>\n]+>/g, '1');
    const code = [...text.matchAll(/```[^\n]*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]);
    return code.flatMap((part) =>
      [...part.matchAll(/npm run( -s)? ([\w:-]+)([^\n|>#;&]*)/g)].map((m) => ({
        where: `${file}: ${m[0].trim()}`,
        words: [m[2], ...words(m[3])],
      })),
    );
  });
}

/** Shell words: quotes joined, `[…]` (optional) dropped. */
const words = (rest: string) =>
  [...rest.replace(/\[[^\]]*\]/g, '').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);

async function program() {
  const waitlist = new Command('waitlist').exitOverride();
  for (const load of Object.values(COMMANDS)) waitlist.addCommand(await load());
  const quiet = (command: Command) => {
    command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    if (!command.commands.length) command.action(() => {});
    command.commands.forEach(quiet);
  };
  quiet(waitlist);
  return waitlist;
}

it('every command line in the docs is one the command takes', async () => {
  const lines = commandLines();
  expect(lines.length).toBeGreaterThan(30);
  const refused: string[] = [];
  for (const { where, words } of lines) {
    const [script, ...rest] = words;
    if (!SCRIPTS.includes(script)) refused.push(`${where}: no script ${script}`);
    if (!['waitlist', 'deploy'].includes(script)) continue;
    const args = rest[0] === '--' ? rest.slice(1) : rest;
    if (script === 'waitlist' && !args.length) continue; // the bare script, named in prose
    const waitlist = await program(); // afresh: commander keeps the values of a parse
    await waitlist
      .parseAsync(script === 'deploy' ? ['deploy', ...args] : args, { from: 'user' })
      .catch((error: CommanderError) => {
        if (error.code !== 'commander.helpDisplayed') refused.push(`${where}: ${error.message}`);
      });
  }
  expect(refused).toEqual([]);
});

it('the parse fails on an unknown command or option and a missing required one', async () => {
  for (const args of [['sign-up'], ['count', '--daly'], ['keys', 'add']]) {
    await expect((await program()).parseAsync(args, { from: 'user' })).rejects.toThrow(CommanderError);
  }
});

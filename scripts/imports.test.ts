/**
 * The arrows between the top folders go one way: cli/ and supabase/ share what both sides of a
 * boundary must agree on through contracts/, which stands on Web APIs alone. Inside cli/, each
 * command keeps to its own rooms (cli/commands/<name>.ts and cli/commands/<name>/); what two
 * commands use lives in a shared folder beside commands/. Read from the import specifiers of every
 * source file that is not a test (as scripts/house.ts tells one: tests may cross, as tests do).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTest } from './house.ts';
import { importSpecifiers, isRelative } from './import-specifiers.ts';

type Import = { file: string; specifier: string; target?: string };

/** The imports of the non-test sources under `folder`; `target`: the repository path a relative one names. */
function importsOf(folder: string): Import[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .map((path) => posix.join(folder, path.split('\\').join('/')))
    .filter((file) => /\.(ts|tsx|js|mjs)$/.test(file) && !isTest(file))
    .flatMap((file) =>
      importSpecifiers(readFileSync(file, 'utf8')).map((specifier) => ({
        file,
        specifier,
        target: isRelative(specifier) ? posix.join(posix.dirname(file), specifier) : undefined,
      })),
    );
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const shown = (imports: Import[]) => imports.map(({ file, specifier }) => `${file} imports "${specifier}"`);

const cli = importsOf('cli');
const supabase = importsOf('supabase');
const contracts = importsOf('contracts');
const mocks = importsOf('mocks');
const elsewhere = ['scripts', 'src', 'e2e', 'vite'].flatMap(importsOf);

/** The command a file belongs to: `notify` for cli/commands/notify.ts and cli/commands/notify/send.ts. */
const commandOf = (path?: string) => /^cli\/commands\/([\w-]+?)(\.ts$|\/)/.exec(path ?? '')?.[1];

describe('the arrows between cli/, supabase/ and contracts/', () => {
  it('nothing under supabase/ but its tests imports cli/', () => {
    expect(shown(supabase.filter(({ target }) => target?.startsWith('cli/')))).toEqual([]);
  });

  it('cli/ imports nothing from supabase/functions/', () => {
    expect(shown(cli.filter(({ target }) => target?.startsWith('supabase/functions/')))).toEqual([]);
  });

  it('contracts/ imports contracts/ files alone, each by its whole name: no node:, no package', () => {
    const outside = contracts.filter(({ target }) => !target?.startsWith('contracts/') || !isFile(target));
    expect(shown(outside)).toEqual([]);
  });

  it('both sides import contracts/: the owner’s command and the Edge Function', () => {
    const intoContracts = (imports: Import[]) => imports.filter(({ target }) => target?.startsWith('contracts/'));
    expect(intoContracts(cli).length).toBeGreaterThan(0);
    expect(intoContracts(supabase.filter(({ file }) => file.startsWith('supabase/functions/'))).length).toBeGreaterThan(
      0,
    );
  });
});

describe("cli/'s rooms", () => {
  it("a command's files import no other command's files", () => {
    const crossing = cli.filter(({ file, target }) => commandOf(target) && commandOf(file) !== commandOf(target));
    // cli/commands.ts, the map of the commands, is the one file outside them that loads each.
    expect(shown(crossing.filter(({ file }) => file !== 'cli/commands.ts'))).toEqual([]);
  });

  it("no file outside cli/commands/ imports a command's files, but the map (cli/commands.ts)", () => {
    const outside = [...cli, ...supabase, ...mocks, ...elsewhere].filter(
      ({ file, target }) => !commandOf(file) && commandOf(target) && file !== 'cli/commands.ts',
    );
    expect(shown(outside)).toEqual([]);
  });

  it("cli/ and mocks/ import nothing from src/, the page's source: what they share is in contracts/", () => {
    expect(shown([...cli, ...mocks].filter(({ target }) => target?.startsWith('src/')))).toEqual([]);
  });
});

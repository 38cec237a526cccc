/**
 * What the owner meets first: a Node too old is named before any TypeScript loads; the command
 * needs only its own packages (npm ci --omit=dev); a database without the migrations says how to
 * apply them; --help lists every exit code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useOwnDatabase } from './own-database';
import { startCli, waitlist } from './run-cli';

const CLI = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(CLI, '..', 'package.json'), 'utf8'));

/** The files `npm run waitlist` loads: cli/ without its tests and benchmarks. */
function programFiles(dir = CLI): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['tests', 'bench'].includes(entry.name) ? [] : programFiles(path);
    return /\.[jt]s$/.test(entry.name) ? [path] : [];
  });
}

describe('before the program loads', () => {
  it('an older Node is told which Node the command needs and how to get it (exit 2)', async () => {
    const oldNode = `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.11.1"}})`;
    const { code, stdout, stderr } = await startCli(['count'], {}, ['--import', oldNode]).done;
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`this is Node 20.11.1; the command needs Node ${pkg.engines.node}`);
    expect(stderr).toContain('nvm install');
  });

  it('every package the program imports is a dependency, so npm ci --omit=dev installs it', () => {
    const imported = new Set<string>();
    for (const file of programFiles()) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/from '((?:@[^/']+\/)?[^./'][^/']*)/g)) {
        if (!name.startsWith('node:')) imported.add(name);
      }
    }
    expect(imported.size).toBeGreaterThan(3);
    const missing = [...imported].filter((name) => !pkg.dependencies[name]);
    expect(missing, 'imported by cli/ but not in dependencies').toEqual([]);
  });

  it('--help lists every exit code, "only uncertain left" with its own', async () => {
    for (const args of [['--help'], ['notify', '--help']]) {
      const { stdout } = await waitlist(args);
      expect(stdout).toMatch(
        /Exit status:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 .*\n {2}4 {4}notify: only uncertain addresses are left.*\n {2}130 /,
      );
    }
  });
});

describe('a database without the migrations', () => {
  useOwnDatabase('cli_bare', { migrated: false });

  it.each([['count'], ['export'], ['limits']])('%s says to apply them, with the command (exit 2)', async (command) => {
    const { code, stdout, stderr } = await waitlist([command]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(
      'its migrations are not applied. Apply them: npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL" --yes',
    );
  });
});

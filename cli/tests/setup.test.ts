/**
 * What the owner meets first: a Node too old is named before any TypeScript loads; the command
 * needs only its own packages (npm ci --omit=dev); a database without the migrations says how to
 * apply them; --help lists every exit code.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mergeEnvFile } from '../connect/env-file';
import { useOwnDatabase } from './own-database';
import { startCli, waitlist } from './run-cli';

const CLI = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(CLI, '..', 'package.json'), 'utf8'));

/** The files `npm run waitlist` loads: cli/ without its tests. */
function programFiles(dir = CLI): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'tests' ? [] : programFiles(path);
    return /\.[jt]s$/.test(entry.name) ? [path] : [];
  });
}

describe('before the program loads', () => {
  it('an older Node is told which Node the command needs and how to get it (exit 2)', async () => {
    const oldNode =
      'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.11.1"}})';
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

  it.each([
    ['WAITLIST_OWNER_KEY_PASSPHRASE', ''],
    ['WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND', 'echo '],
  ])('refuses %s kept in .env.local, says where it belongs, and never prints it', async (name, before) => {
    const folder = mkdtempSync(join(tmpdir(), 'waitlist-env-'));
    const passphrase = `kept-beside-the-key-${randomUUID()}`;
    writeFileSync(join(folder, '.env.local'), `${name}=${before}${passphrase}\n`, { mode: 0o600 });
    const { code, stdout, stderr } = await startCli(['count'], { WAITLIST_OWNER_KEY_PASSPHRASE: '' }, [], folder).done;
    rmSync(folder, { recursive: true });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`.env.local holds ${name}: delete that line`);
    expect(stderr).toContain('set WAITLIST_OWNER_KEY_PASSPHRASE_COMMAND');
    expect(stderr).not.toContain(passphrase);
  });

  it('--help lists every exit code, "only uncertain left" with its own', async () => {
    for (const args of [['--help'], ['notify', '--help']]) {
      const { stdout } = await waitlist(args);
      // The codes in order (one literal would pass 120 columns): 0 to 4, then 4's text and 130 after it.
      expect(stdout).toMatch(/Exit status:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 .*\n {2}4 /);
      expect(stdout).toMatch(/\n {2}4 {4}notify: only uncertain addresses are left.*\n {2}130 /);
    }
  });
});

describe('.env.local', () => {
  const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

  it.each([
    ['over a file of mode 0644', 0o644],
    ['new', null],
  ])('holds a new secret only in files of mode 0600, from the first byte written (%s)', (_, before) => {
    const folder = mkdtempSync(join(tmpdir(), 'waitlist-env-'));
    const file = join(folder, '.env.local');
    if (before) {
      writeFileSync(file, 'VITE_SITE_URL=https://example.com\n', { mode: before });
      chmodSync(file, before); // the mode as given, whatever the umask
    }
    const secret = randomUUID();
    // Each time a write ends: the mode of every file of the folder that holds the secret.
    const modes: number[] = [];
    const write = fs.writeFileSync;
    fs.writeFileSync = (...args: Parameters<typeof write>) => {
      write(...args);
      for (const name of readdirSync(folder)) {
        if (readFileSync(join(folder, name), 'utf8').includes(secret)) modes.push(statSync(join(folder, name)).mode);
      }
    };
    syncBuiltinESMExports();
    try {
      mergeEnvFile({ WAITLIST_TEST_SECRET: secret }, file);
    } finally {
      fs.writeFileSync = write;
      syncBuiltinESMExports();
      delete process.env.WAITLIST_TEST_SECRET;
    }
    expect(modes.length).toBeGreaterThan(0);
    expect(modes.map((mode) => (mode & 0o777).toString(8))).toEqual(modes.map(() => '600'));
    expect(readdirSync(folder)).toEqual(['.env.local']);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(readFileSync(file, 'utf8')).toBe(
      `${before ? 'VITE_SITE_URL=https://example.com\n' : ''}WAITLIST_TEST_SECRET=${secret}\n`,
    );
    rmSync(folder, { recursive: true });
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

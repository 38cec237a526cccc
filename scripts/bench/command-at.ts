/**
 * An earlier commit's `waitlist` command, to measure beside this tree's in one run: that commit's
 * cli/ and supabase/ (which cli/ reads) in a temp dir, with this tree's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** main: that commit's cli/main.js; remove: deletes the temp dir. */
export function commandAt(commit: string): { main: string; remove: () => void } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: ROOT, maxBuffer: 1 << 28 });
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`])
    .toString()
    .trim();
  const dir = mkdtempSync(join(tmpdir(), `waitlist-at-${sha.slice(0, 7)}-`));
  execFileSync('tar', ['-x', '-C', dir], { input: git(['archive', sha, 'cli', 'supabase', 'package.json']) });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { main: join(dir, 'cli', 'main.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Every migration bounds its waits the same way under both runners, with no warning: a
 * session-level SET first and a RESET last. `supabase db push` runs a file as one transaction
 * but not in a transaction block, so SET LOCAL warns there ("SET LOCAL can only be used in
 * transaction blocks"); scripts/db-push-check.ts (npm run test:db-push) pushes them for real.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('../migrations/', import.meta.url);
const files = readdirSync(DIR).filter((name) => name.endsWith('.sql'));
/** The statements of a file, comments and blank lines left out. */
const statements = (name: string) =>
  readFileSync(new URL(name, DIR), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.trimStart().startsWith('--'));

describe.each(files)('%s', (name) => {
  it('sets lock_timeout and statement_timeout first, resets them last, and never uses SET LOCAL', () => {
    const lines = statements(name);
    expect(lines.slice(0, 2)).toEqual(["set lock_timeout = '5s';", "set statement_timeout = '60s';"]);
    expect(lines.slice(-2)).toEqual(['reset lock_timeout;', 'reset statement_timeout;']);
    expect(lines.filter((line) => /\bset\s+local\b/i.test(line))).toEqual([]);
  });
});

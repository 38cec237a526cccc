/**
 * `waitlist baseline`: moves a database of the chain of 2026-11-26 onto the baseline: refuses a list sealed by the hash
 * ratchet; asks; runs the clean-up and the baseline's files in one transaction; then rewrites the history with the
 * pinned Supabase CLI (the password in PGPASSWORD). Safe to run again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import type pg from 'pg';
import { cliTarget, supabaseCli } from '../connect/tools.ts';
import { longQuery, withDatabase } from '../connect/database.ts';
import { plural } from '../findings/finding.ts';
import { inTransaction } from '../connect/queries.ts';
import { BASELINE, CHAIN_2026_11_26, MIGRATIONS, migrationPath } from '../database/migrations.ts';
import { confirm, say, UsageError } from '../terminal/terminal.ts';

const CLEAN_UP = new URL('../../supabase/baseline/from-chain-2026-11-26.sql', import.meta.url);
const BASELINE_FILES = MIGRATIONS.filter((file) => BASELINE.includes(file.slice(0, 14)));
async function stateOf(db: pg.Client) {
  const { rows } = await db.query<{ chain: boolean; baseline: boolean; history: boolean }>(
    `select to_regclass('private.waiting_list_keys') is not null as chain,
            to_regclass('private.signup_addresses') is not null as baseline,
            to_regclass('supabase_migrations.schema_migrations') is not null as history`,
  );
  const [{ chain, baseline, history }] = rows;
  const column = async (sql: string) => (await db.query(sql)).rows.map((row) => Object.values(row)[0] as string);
  return {
    chain,
    baseline,
    ratchetSealed: chain
      ? Number((await column('select count(*) from private.waiting_list_keys where step is not null'))[0])
      : 0,
    history: history ? await column('select version from supabase_migrations.schema_migrations') : null,
  };
}

/** The clean-up and every baseline file, in one transaction. */
export async function moveToBaseline(db: pg.Client) {
  const files = [CLEAN_UP, ...BASELINE_FILES.map(migrationPath)];
  await inTransaction(db, async () => {
    for (const file of files) await db.query(longQuery(readFileSync(file, 'utf8')));
  });
}

async function repairHistory(history: string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'waitlist-baseline-'));
  try {
    const { url, env } = cliTarget(folder);
    const repair = (status: string, versions: string[]) =>
      supabaseCli(['migration', 'repair', '--status', status, ...versions, `--remote=${url}`, '--yes'], env);
    const old = CHAIN_2026_11_26.filter((version) => history.includes(version));
    if (old.length) await repair('reverted', old);
    await repair('applied', BASELINE);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function baselineCommand(): Command {
  return new Command('baseline')
    .description('Move a database on the migrations of 2026-11-26 onto the baseline; keeps every signup.')
    .option('-y, --yes', 'do not ask (for scripts)')
    .action(async (options: { yes?: boolean }) => {
      const { chain, baseline, ratchetSealed, history } = await withDatabase(stateOf);
      if (ratchetSealed) {
        throw new UsageError(
          `${plural(ratchetSealed, 'signup')} sealed by the hash ratchet, which the baseline no longer has: ` +
            'move them to hour keys first (`npm run waitlist -- keys upgrade` in a clone of commit a854308), ' +
            'then run this again.',
        );
      }
      if (!chain && !baseline) throw new UsageError('This database has no waiting list to move.');
      const missing = chain && history ? CHAIN_2026_11_26.filter((v) => !history.includes(v)) : [];
      if (missing.length) {
        throw new UsageError(
          `The history lacks ${plural(missing.length, 'migration')} of the old chain (${missing.join(', ')}): push ` +
            'the whole chain first, from a clone of commit a854308, then run this again.',
        );
      }
      // The history is wrong while it lists a version of the chain, or lacks one of the baseline.
      const historyWrong =
        history && [...CHAIN_2026_11_26, ...BASELINE].some((v) => history.includes(v) !== BASELINE.includes(v));
      if (!chain && !historyWrong) {
        say('The database is on the baseline: nothing to do.');
        return;
      }
      if (chain) say('The clean-up drops the hash ratchet and renames tables and columns, keeping every signup.');
      if (history) say(`Then the migration history lists the baseline's ${BASELINE.length} files, not the old ones.`);
      await confirm('Move this database onto the baseline?', options.yes);
      if (chain) await withDatabase(moveToBaseline, { longQueries: true });
      if (history) await repairHistory(history);
      say(
        'Done: the database is on the baseline. Next, the files after it: ' +
          'npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL".',
      );
    });
}

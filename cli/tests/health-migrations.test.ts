/**
 * `waitlist health` on a database that lacks this clone's newest migration: a setup finding with
 * the command that applies it, whether the Supabase CLI's history table says so or the migration's
 * objects are missing; on a history still of the chain the baseline replaced, the command that
 * moves it (a database of that chain without a history: baseline.test.ts). A database of its own
 * (no pg_cron there: its findings are not what this file checks).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDatabase } from '../../supabase/tests/shared-server';
import { checkMigrations } from '../database/migrations';
import { findingsOf, health, useStandIns } from './health-stand-ins';
import { useOwnDatabase } from './own-database';

const NAME = 'cli_health_migrations';
useOwnDatabase(NAME);
const stand = useStandIns(() => ({ ...sharedDatabase(), database: NAME }));

const files = readdirSync(new URL('../../supabase/migrations/', import.meta.url)).sort();
const newest = files.at(-1)!;
const sealing = files.find((file) => file.endsWith('_sealing.sql'))!;
const APPLY = 'Apply them from this clone: npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL" --yes';
const OLD_CHAIN = {
  check: 'migrations',
  outcome: 'setup',
  fix: 'Move it onto the baseline: npm run waitlist -- baseline (docs/operations.md).',
};
const migrationsFinding = async (args: string[] = []) =>
  findingsOf(await health(stand, ['--json', ...args])).find((f) => f.check === 'migrations');

describe('waitlist health, migrations', () => {
  it("reads the Supabase CLI's history table where there is one", async () => {
    await stand.owner.query(
      `create schema supabase_migrations;
       create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text)`,
    );
    const record = (versions: string[]) =>
      stand.owner.query('insert into supabase_migrations.schema_migrations (version) select unnest($1::text[])', [
        versions,
      ]);
    try {
      await record(files.slice(0, -1).map((file) => file.slice(0, 14)));
      const run = await health(stand);
      expect(run.code).toBe(2);
      expect(run.stdout).toContain(
        `SETUP   migrations: Not applied (supabase_migrations.schema_migrations): ${newest}.\n        Fix: ${APPLY}\n`,
      );

      await record([newest.slice(0, 14)]);
      expect(await checkMigrations(stand.owner)).toEqual({
        check: 'migrations',
        outcome: 'ok',
        says: `All ${files.length} applied (supabase_migrations.schema_migrations).`,
      });

      // A history the baseline replaced, not yet moved (`migration repair` has not run).
      await stand.owner.query('delete from supabase_migrations.schema_migrations');
      await record(['20261122044500', '20261126600000']);
      expect(await migrationsFinding()).toEqual({
        ...OLD_CHAIN,
        says:
          "The database is on the migrations this clone's baseline replaced " +
          '(supabase_migrations.schema_migrations lists them).',
      });
    } finally {
      await stand.owner.query('drop schema supabase_migrations cascade');
    }
  });

  it('elsewhere, finds the objects of a migration missing', async () => {
    // As if the sealing migration had never been applied (two of the functions it adds; the second
    // made again by the holders-by-key file, missing from both).
    await stand.owner.query('drop function private.seal_pending(), private.retire_hour_keys()');
    expect(await migrationsFinding()).toEqual({
      check: 'migrations',
      outcome: 'setup',
      says:
        `Not applied (missing private.seal_pending, private.retire_hour_keys): ${sealing}, ` +
        '20261206110000_holders_by_key.sql.',
      fix: APPLY,
    });
  });
});

/**
 * `waitlist health` on a database that lacks this clone's newest migration: exit 2 with the command
 * that applies it, whether the Supabase CLI's history table says so or the migration's objects are
 * missing. A database of its own (no pg_cron there: its findings are not what this file checks).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findingsOf, health, useStandIns } from './health-stand-ins';
import { useOwnDatabase } from './own-database';
import { sharedDatabase } from '../../supabase/tests/shared-server';

const NAME = 'cli_health_migrations';
useOwnDatabase(NAME);
const stand = useStandIns(() => ({ ...sharedDatabase(), database: NAME }));

const files = readdirSync(new URL('../../supabase/migrations/', import.meta.url)).sort();
const newest = files.at(-1)!;
/** The migration that seals the list (its functions are what a later file is least likely to recreate). */
const sealed = files.find((file) => file.endsWith('_sealed_list.sql'))!;
const APPLY = 'Fix: Apply them from this clone: npx --yes supabase@3.1.0 db push --remote="$DATABASE_URL" --yes';

describe('waitlist health, migrations', () => {
  it("reads the Supabase CLI's history table where there is one", async () => {
    await stand.owner.query(
      `create schema supabase_migrations;
       create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text)`,
    );
    try {
      for (const file of files.slice(0, -1)) {
        await stand.owner.query('insert into supabase_migrations.schema_migrations values ($1, null, $2)', [
          file.slice(0, 14),
          file.slice(15, -4),
        ]);
      }
      const run = await health(stand);
      expect(run.code).toBe(2);
      expect(run.stdout).toContain(
        `SETUP   migrations: Not applied (supabase_migrations.schema_migrations): ${newest}.\n        ${APPLY}\n`,
      );

      await stand.owner.query('insert into supabase_migrations.schema_migrations values ($1)', [newest.slice(0, 14)]);
      const current = findingsOf(await health(stand, ['--json'])).find((f) => f.check === 'migrations');
      expect(current).toEqual({
        check: 'migrations',
        outcome: 'ok',
        says: `All ${files.length} applied (supabase_migrations.schema_migrations).`,
      });
    } finally {
      await stand.owner.query('drop schema supabase_migrations cascade');
    }
  });

  it('elsewhere, finds the objects of a migration missing', async () => {
    // As if the sealing migration had never been applied (two of the functions it adds).
    await stand.owner.query('drop function private.advance_seal_key(), private.ratchet_derive(bytea, text)');
    const run = await health(stand);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      `SETUP   migrations: Not applied (missing private.ratchet_derive, private.advance_seal_key): ${sealed}.\n        ${APPLY}\n`,
    );
    // The visitor's path still works: only the setup is reported.
    expect(findingsOf(await health(stand, ['--json'])).filter((f) => f.outcome !== 'ok')).toEqual([
      expect.objectContaining({ check: 'migrations', outcome: 'setup' }),
    ]);
  });
});

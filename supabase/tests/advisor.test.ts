/**
 * Supabase's Security Advisor stays clean: each lint finds nothing in the migrated schema, and
 * finds the fault when one is planted (inside a transaction that is rolled back).
 */
import { describe, expect, it } from 'vitest';
import { EXPOSED_SCHEMAS, lints } from './advisor';
import { useDatabase } from './use-database';

const db = useDatabase({ pgCron: true });

const flagged = async (lint: string) =>
  (await db.owner.query(lints[lint], [EXPOSED_SCHEMAS])).rows.map((row) => row.object as string);

/** A fault each lint must catch, planted as the owner or the superuser would. */
const faults: Record<string, { sql: string; object: string }> = {
  function_search_path_mutable: {
    sql: `create function private.lint_probe() returns int language sql as 'select 1'`,
    object: 'private.lint_probe',
  },
  extension_in_public: { sql: `create extension citext with schema public`, object: 'citext' },
  rls_disabled_in_public: { sql: `create table public.lint_probe (id int)`, object: 'public.lint_probe' },
  security_definer_view: {
    sql: `create view public.lint_probe as select 1 as one`,
    object: 'public.lint_probe',
  },
  materialized_view_in_api: {
    sql: `create materialized view public.lint_probe as select 1 as one`,
    object: 'public.lint_probe',
  },
  rls_policy_always_true: {
    sql: `create policy lint_probe on public.waiting_list for insert to anon with check (true)`,
    object: 'public.waiting_list lint_probe',
  },
  security_definer_function_executable: {
    sql: `create function private.lint_probe() returns int language sql security definer set search_path = ''
          as 'select 1'; grant execute on function private.lint_probe() to anon`,
    object: 'private.lint_probe',
  },
};

describe("Supabase's Security Advisor (splinter's security lints)", () => {
  it.each(Object.keys(lints))('%s: nothing flagged', async (lint) => {
    expect(await flagged(lint)).toEqual([]);
  });

  it.each(Object.keys(lints))('%s: flags a planted fault', async (lint) => {
    await db.owner.query('begin');
    try {
      await db.owner.query(faults[lint].sql);
      expect(await flagged(lint)).toEqual([faults[lint].object]);
    } finally {
      await db.owner.query('rollback');
    }
  });

  it('installs pg_cron in pg_catalog, as Supabase does', async () => {
    const { rows } = await db.owner.query(
      `select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_cron'`,
    );
    expect(rows).toEqual([{ schema: 'pg_catalog' }]);
  });
});

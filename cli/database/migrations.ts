/**
 * Whether the database has every migration of this clone: the Supabase CLI's history says so, else the
 * objects the files create exist. A database on the chain the baseline replaced is named, with `baseline`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { APPLY_MIGRATIONS, ok, setup, type Finding } from '../findings/finding.ts';

const DIR = new URL('../../supabase/migrations/', import.meta.url);
/** Every migration file, in order: the baseline's, then any later ones. */
export const MIGRATIONS = readdirSync(DIR)
  .filter((name) => /^\d{14}_\w+\.sql$/.test(name))
  .sort();
export const migrationPath = (file: string) => new URL(file, DIR);
/** The baseline's versions: the files that replaced the chain of 2026-11-26 (later ones are applied by db push). */
export const BASELINE = ['20261128100000', '20261128100100', '20261128100200', '20261128100300', '20261128100400'];
/** The versions of the chain of 2026-11-26 that the baseline replaced (supabase/tests/fixtures/chain-2026-11-26/). */
export const CHAIN_2026_11_26 = [
  ...'20261122044500 20261122044600 20261122044800 20261124100000 20261125100000 20261125100100'.split(' '),
  ...'20261125100200 20261125200000 20261126100000 20261126200000 20261126200100 20261126300000'.split(' '),
  ...'20261126300100 20261126400000 20261126500000 20261126600000'.split(' '),
];
const OBJECT =
  /^\s*create\s+(?:or\s+replace\s+)?(table|view|function|sequence)\s+(?:if\s+not\s+exists\s+)?(\w+\.\w+)/gim;

const TO_BASELINE = 'Move it onto the baseline: npm run waitlist -- baseline (docs/operations.md).';
const onOldChain = (how: string) =>
  setup('migrations', `The database is on the migrations this clone's baseline replaced (${how}).`, TO_BASELINE);
const notApplied = (files: string[], how: string) =>
  setup('migrations', `Not applied (${how}): ${files.join(', ')}.`, `Apply them from this clone: ${APPLY_MIGRATIONS}`);

async function byHistory(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  if (CHAIN_2026_11_26.some((version) => applied.has(version))) {
    return onOldChain('supabase_migrations.schema_migrations lists them');
  }
  const missing = MIGRATIONS.filter((file) => !applied.has(file.slice(0, 14)));
  if (missing.length) return notApplied(missing, 'supabase_migrations.schema_migrations');
  const unknown = [...applied].filter((version) => !MIGRATIONS.some((file) => file.startsWith(`${version}_`)));
  if (unknown.length) {
    const lacks = `The database has migrations this clone lacks: ${unknown.join(', ')}.`;
    return setup('migrations', lacks, 'Update this clone (git pull), then check again.');
  }
  return ok('migrations', `All ${MIGRATIONS.length} applied (supabase_migrations.schema_migrations).`);
}

async function byObjects(db: pg.Client): Promise<Finding> {
  const texts = MIGRATIONS.map((file) => readFileSync(migrationPath(file), 'utf8').toLowerCase());
  const expected = MIGRATIONS.flatMap((file, i) =>
    [...texts[i].matchAll(OBJECT)]
      .map(([, kind, name]) => ({ file, kind, name }))
      // A table a later file renames (private.owner_key, 20261128120000_key_holders.sql) is expected no more.
      .filter(({ name }) => !texts.slice(i + 1).some((later) => later.includes(`alter table ${name} rename to`))),
  );
  const { rows } = await db.query<{ i: number }>(
    `select o.i from unnest($1::text[], $2::text[]) with ordinality as o(kind, name, i)
     where not case o.kind
       when 'function' then exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                                    where n.nspname || '.' || p.proname = o.name)
       -- The catalog, not to_regclass: a role without USAGE on the schema may read it too.
       else exists (select from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname || '.' || c.relname = o.name) end`,
    [expected.map((o) => o.kind), expected.map((o) => o.name)],
  );
  const missing = rows.map((row) => expected[Number(row.i) - 1]);
  if (!missing.length) {
    return ok('migrations', `All ${MIGRATIONS.length} applied (each one's tables, views and functions exist).`);
  }
  const { rows: chain } = await db.query<{ old: boolean }>(
    `select exists (select from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = 'private' and c.relname = 'seal_chain') as old`,
  );
  if (chain[0].old) return onOldChain('private.seal_chain exists');
  const files = [...new Set(missing.map((o) => o.file))];
  return notApplied(files, `missing ${[...new Set(missing.map((o) => o.name))].join(', ')}`);
}

export async function checkMigrations(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ history: boolean }>(
    `select exists (select from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = 'supabase_migrations' and c.relname = 'schema_migrations') as history`,
  );
  if (!rows[0].history) return byObjects(db);
  // A role that may not read the history table: the objects say the same.
  return byHistory(db).catch((error: { code?: string }) =>
    error.code === '42501' ? byObjects(db) : Promise.reject(error),
  );
}

/**
 * Whether the database has every migration of this clone. Where the Supabase CLI applied them, its
 * history table says so; elsewhere, the tables, views, sequences and functions each file creates
 * must exist (unless a later file drops them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { ok, setup, type Finding } from './finding.ts';
import { APPLY_MIGRATIONS } from './fixes.ts';

const DIR = new URL('../../supabase/migrations/', import.meta.url);
const FILES = readdirSync(DIR)
  .filter((name) => /^\d{14}_\w+\.sql$/.test(name))
  .sort();
const OBJECT =
  /^\s*(create|drop)\s+(?:or\s+replace\s+)?(table|view|function|sequence)\s+(?:if\s+(?:not\s+)?exists\s+)?(\w+\.\w+)/gim;

type DbObject = { file: string; kind: string; name: string };

/** What each file creates and no later file drops, in file order. */
function expectedObjects(): DbObject[] {
  let objects: DbObject[] = [];
  for (const file of FILES) {
    for (const [, verb, kind, name] of readFileSync(new URL(file, DIR), 'utf8').matchAll(OBJECT)) {
      const found = { file, kind: kind.toLowerCase(), name: name.toLowerCase() };
      if (verb.toLowerCase() === 'create') objects.push(found);
      else objects = objects.filter((o) => o.kind !== found.kind || o.name !== found.name);
    }
  }
  return objects;
}

const notApplied = (files: string[], how: string) =>
  setup('migrations', `Not applied (${how}): ${files.join(', ')}.`, `Apply them from this clone: ${APPLY_MIGRATIONS}`);

async function byHistory(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  const missing = FILES.filter((file) => !applied.has(file.slice(0, 14)));
  if (missing.length) return notApplied(missing, 'supabase_migrations.schema_migrations');
  const unknown = [...applied].filter((version) => !FILES.some((file) => file.startsWith(`${version}_`)));
  if (unknown.length) {
    return setup(
      'migrations',
      `The database has migrations this clone lacks: ${unknown.join(', ')}.`,
      'Update this clone (git pull), then check again.',
    );
  }
  return ok('migrations', `All ${FILES.length} applied (supabase_migrations.schema_migrations).`);
}

async function byObjects(db: pg.Client): Promise<Finding> {
  const expected = expectedObjects();
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
  if (!missing.length)
    return ok('migrations', `All ${FILES.length} applied (each one's tables, views and functions exist).`);
  const files = [...new Set(missing.map((o) => o.file))];
  return notApplied(files, `missing ${missing.map((o) => o.name).join(', ')}`);
}

export async function checkMigrations(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<{ history: boolean }>(
    `select exists (select from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = 'supabase_migrations' and c.relname = 'schema_migrations') as history`,
  );
  if (!rows[0].history) return byObjects(db);
  try {
    return await byHistory(db);
  } catch (error) {
    // A role that may not read the history table: the objects say the same.
    if ((error as { code?: string }).code === '42501') return byObjects(db);
    throw error;
  }
}

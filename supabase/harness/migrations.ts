/**
 * The migrations as `supabase db push` applies them (each file in one transaction, as `postgres`),
 * then the seed: supabase/migrations/, or another chain of files (a test's fixtures).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Cluster } from './cluster';
import { connect, createSupabaseDatabase, PUBLIC_SCHEMA_USAGE, type ConnectionInfo } from './database';

const SUPABASE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const MIGRATIONS_DIR = join(SUPABASE_DIR, 'migrations');
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+\.sql$/;

/** The files of a migrations folder, in the order they apply. */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const bad = names.filter((name) => !MIGRATION_NAME.test(name));
  if (bad.length) throw new Error(`Not <UTC timestamp>_<name>.sql: ${bad.join(', ')}`);
  return names.map((name) => join(dir, name));
}

async function runFile(client: pg.Client, path: string): Promise<void> {
  try {
    await client.query('begin');
    await client.query(readFileSync(path, 'utf8'));
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw new Error(`${path}: ${String(error)}`, { cause: error });
  }
}

/** A Supabase-like database with every migration and the seed: what the db tests share. */
export async function createWaitlistDatabase(cluster: Cluster): Promise<ConnectionInfo> {
  const waitlist = await createSupabaseDatabase(cluster);
  await migrate(waitlist);
  return waitlist;
}

/**
 * Every migration in order (or `files`), as `postgres` (what `supabase db reset` runs), then the
 * seed unless `seed` is false.
 */
export async function migrate(
  database: ConnectionInfo,
  { files = migrationFiles(), seed = true }: { files?: string[]; seed?: boolean } = {},
): Promise<void> {
  const owner = await connect(database, 'postgres');
  try {
    await owner.query(PUBLIC_SCHEMA_USAGE);
    for (const path of files) await runFile(owner, path);
    if (seed) await runFile(owner, join(SUPABASE_DIR, 'seed.sql'));
  } finally {
    await owner.end();
  }
}

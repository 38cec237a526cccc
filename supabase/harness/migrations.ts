/**
 * The migrations as `supabase db reset` applies them (each file in one transaction, as `postgres`),
 * then the seed; or a range of them, as `db push` brings a deployed database up to date.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Cluster } from './cluster';
import { connect, createSupabaseDatabase, PUBLIC_SCHEMA_USAGE, type ConnectionInfo } from './database';

const SUPABASE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+\.sql$/;

function migrationFiles(): string[] {
  return readdirSync(join(SUPABASE_DIR, 'migrations'))
    .filter((name) => name.endsWith('.sql'))
    .sort();
}

function checkMigrationNames(names: string[]): void {
  const bad = names.filter((name) => !MIGRATION_NAME.test(name));
  if (bad.length) throw new Error(`Not <UTC timestamp>_<name>.sql: ${bad.join(', ')}`);
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

/** Migrations to apply, by file name or version: from `from` on, and/or only those before `before`. */
export type MigrationRange = { from?: string; before?: string };

/**
 * Every migration in order, then the seed, as `postgres` (what `supabase db reset` runs). With a
 * range, only those migrations and no seed: a database as it was before a migration, then brought
 * up to date as `db push` does to a deployed one.
 */
export async function migrate(database: ConnectionInfo, { from = '', before }: MigrationRange = {}): Promise<void> {
  const owner = await connect(database, 'postgres');
  try {
    if (!from) await owner.query(PUBLIC_SCHEMA_USAGE);
    const names = migrationFiles();
    checkMigrationNames(names);
    for (const name of names.filter((n) => n >= from && (!before || n < before))) {
      await runFile(owner, join(SUPABASE_DIR, 'migrations', name));
    }
    if (!from && !before) await runFile(owner, join(SUPABASE_DIR, 'seed.sql'));
  } finally {
    await owner.end();
  }
}

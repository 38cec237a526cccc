/**
 * Turns an empty cluster into what `supabase db reset` gives: Supabase's API roles, then every
 * migration in order, then the seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DATABASE, SUPERUSER, type Cluster } from './cluster';

const SUPABASE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+\.sql$/;

export type ConnectionInfo = { host: string; port: number; database: string; cron: boolean; binDir: string };

export type Role = 'postgres' | 'authenticator' | typeof SUPERUSER;

export async function connect(info: ConnectionInfo, user: Role): Promise<pg.Client> {
  const client = new pg.Client({ host: info.host, port: info.port, database: info.database, user });
  await client.connect();
  return client;
}

/** `postgres` owns the schema and runs migrations without being a superuser, as on Supabase. */
const supabaseRoles = `
  create role postgres login createrole createdb bypassrls;
  create role anon nologin noinherit;
  create role authenticated nologin noinherit;
  create role service_role nologin noinherit bypassrls;
  create role authenticator login noinherit;
  grant anon, authenticated, service_role to authenticator, postgres;
`;
const createDatabase = (locale: string) =>
  `create database ${DATABASE} owner postgres encoding 'UTF8' locale '${locale}' template template0`;

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

/**
 * Supabase lets the migration role enable pg_cron (its supautils extension runs the CREATE as a
 * superuser). Here the superuser does it beforehand, and grants what Supabase grants: then the
 * migration's `create extension if not exists pg_cron` finds it and schedules the job.
 */
const enableCron = `
  create extension if not exists pg_cron with schema pg_catalog;
  grant usage on schema cron to postgres;
  grant all on all tables in schema cron to postgres;
`;

/**
 * pg_cron's launcher starts with the server, exits because the database does not exist yet, and
 * is restarted by the postmaster a second later: wait (10 s at most) until it runs.
 */
async function cronSchedulerStarted(superuser: pg.Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await superuser.query(
      `select count(*)::int as n from pg_stat_activity where backend_type = 'pg_cron launcher'`,
    );
    if (rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error('pg_cron scheduler did not start within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function createWaitlistDatabase(cluster: Cluster): Promise<ConnectionInfo> {
  const info = {
    host: cluster.socketDir,
    port: cluster.port,
    database: 'postgres',
    cron: cluster.cron,
    binDir: cluster.binDir,
  };
  const admin = await connect(info, SUPERUSER);
  try {
    await admin.query(supabaseRoles);
    await admin.query(createDatabase(cluster.locale));
  } finally {
    await admin.end();
  }

  const waitlist = { ...info, database: DATABASE };
  if (cluster.cron) {
    const superuser = await connect(waitlist, SUPERUSER);
    try {
      await superuser.query(enableCron);
      await cronSchedulerStarted(superuser);
    } finally {
      await superuser.end();
    }
  }

  await migrate(waitlist);
  return waitlist;
}

/** Migration versions (their 14-digit prefix) to apply: from `from` on, and/or only those before `before`. */
export type MigrationRange = { from?: string; before?: string };

/**
 * Every migration in order, then the seed, as `postgres` (what `supabase db reset` runs). With a
 * range, only those migrations and no seed: a database as it was before a migration, then brought
 * up to date as `db push` does to a deployed one.
 */
export async function migrate(database: ConnectionInfo, { from = '', before }: MigrationRange = {}): Promise<void> {
  const owner = await connect(database, 'postgres');
  try {
    if (!from) await owner.query('grant usage on schema public to anon, authenticated, service_role');
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

/** The owner's connection URL (what the CLI reads from DATABASE_URL), through the server's socket. */
export const ownerUrl = (info: ConnectionInfo) =>
  `postgresql://postgres@localhost/${info.database}?host=${encodeURIComponent(info.host)}&port=${info.port}`;

/** A new, empty database `name` (dropped first if it exists) in the shared test server. */
export async function createEmptyDatabase(shared: ConnectionInfo, name: string): Promise<ConnectionInfo> {
  const admin = await connect({ ...shared, database: 'postgres' }, SUPERUSER);
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name} owner postgres template template0`);
  } finally {
    await admin.end();
  }
  return { ...shared, database: name };
}

/**
 * Turns an empty cluster into what `supabase db reset` gives: Supabase's API roles, then every
 * migration in order, then the seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SUPERUSER, type Cluster } from './cluster';

const DATABASE = 'waitlist';
const SUPABASE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+\.sql$/;

export type ConnectionInfo = { host: string; port: number; database: string };

export type Role = 'postgres' | 'authenticator' | typeof SUPERUSER;

export async function connect(info: ConnectionInfo, user: Role): Promise<pg.Client> {
  const client = new pg.Client({ ...info, user });
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

export async function createWaitlistDatabase(cluster: Cluster): Promise<ConnectionInfo> {
  const info = { host: cluster.socketDir, port: cluster.port, database: 'postgres' };
  const admin = await connect(info, SUPERUSER);
  try {
    await admin.query(supabaseRoles);
    await admin.query(createDatabase(cluster.locale));
  } finally {
    await admin.end();
  }

  const waitlist = { ...info, database: DATABASE };
  const owner = await connect(waitlist, 'postgres');
  try {
    await owner.query('grant usage on schema public to anon, authenticated, service_role');
    const names = migrationFiles();
    checkMigrationNames(names);
    for (const name of names) await runFile(owner, join(SUPABASE_DIR, 'migrations', name));
    await runFile(owner, join(SUPABASE_DIR, 'seed.sql'));
  } finally {
    await owner.end();
  }
  return waitlist;
}

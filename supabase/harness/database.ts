/**
 * Turns an empty cluster into a Supabase-like database: Supabase's API roles, pg_cron, the grants
 * a new project has. The migrations come next (migrations.ts, or the Supabase CLI in
 * scripts/db-push-check.ts).
 */
import pg from 'pg';
import { DATABASE, majorVersion, SUPERUSER, type Cluster } from './cluster';

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
/**
 * Supabase's supautils lets `postgres` set, for itself and for the API roles, the superuser-only
 * settings in its `privileged_role_allowed_configs` (supabase/security.md, "Logs", cites the list).
 * Here the superuser grants the two the migrations set; `postgres` already has CREATEROLE.
 */
const supautilsSettings = 'grant set on parameter log_parameter_max_length, auto_explain.log_min_duration to postgres';
/**
 * From PostgreSQL 16 on, CREATEROLE alone no longer lets `postgres` alter a role it did not
 * create (the migrations' `ALTER ROLE authenticator SET`); on Supabase, supautils lets it. Here the
 * superuser grants it ADMIN on authenticator (not run here: the machines have PostgreSQL 15).
 */
const adminOnAuthenticator = 'grant authenticator to postgres with admin option';
const createDatabase = (locale: string) =>
  `create database ${DATABASE} owner postgres encoding 'UTF8' locale '${locale}' template template0`;

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

/** What a Supabase project's `public` schema grants the API roles before any migration. */
export const PUBLIC_SCHEMA_USAGE = 'grant usage on schema public to anon, authenticated, service_role';

/** An empty Supabase-like database: the API roles, pg_cron if the server has it, no migration yet. */
export async function createSupabaseDatabase(cluster: Cluster): Promise<ConnectionInfo> {
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
    await admin.query(supautilsSettings);
    if (majorVersion(cluster.binDir) >= 16) await admin.query(adminOnAuthenticator);
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

  const owner = await connect(waitlist, 'postgres');
  await owner.query(PUBLIC_SCHEMA_USAGE).finally(() => owner.end());
  return waitlist;
}

/** The owner's connection URL (what the CLI reads from DATABASE_URL), through the server's socket. */
export const ownerUrl = (info: ConnectionInfo) =>
  `postgresql://postgres@localhost/${info.database}?host=${encodeURIComponent(info.host)}&port=${info.port}`;

/**
 * A new database `name` (dropped first if it exists) in the shared test server: empty, or a copy
 * of the database `template` (which nobody may be connected to).
 */
export async function createEmptyDatabase(
  shared: ConnectionInfo,
  name: string,
  template = 'template0',
): Promise<ConnectionInfo> {
  const admin = await connect({ ...shared, database: 'postgres' }, SUPERUSER);
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name} owner postgres template ${template}`);
  } finally {
    await admin.end();
  }
  return { ...shared, database: name };
}

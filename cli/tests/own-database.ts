/**
 * A database of its own for a CLI test file, migrated like the shared one, in the db tests'
 * throwaway server: the CLI tests seed, suppress and email the whole list, which must not
 * disturb the other files' rows (nor theirs these tests' counts). The CLI finds it through
 * DATABASE_URL, which its child processes inherit.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { SUPERUSER } from '../../supabase/tests/cluster';
import { connect, migrate, type ConnectionInfo } from '../../supabase/tests/database';

/** The DATABASE_URL of `info`'s database, as the owner (postgres), through the server's Unix socket. */
export const ownerUrl = (info: ConnectionInfo) =>
  `postgresql://postgres@localhost/${info.database}?host=${encodeURIComponent(info.host)}&port=${info.port}`;

export function useOwnDatabase(name: string): { owner: Client } {
  const clients = {} as { owner: Client };
  beforeAll(async () => {
    const shared = inject('database');
    const admin = await connect({ ...shared, database: 'postgres' }, SUPERUSER);
    try {
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name} owner postgres template template0`);
    } finally {
      await admin.end();
    }
    const own = { ...shared, database: name };
    await migrate(own);
    clients.owner = await connect(own, 'postgres');
    process.env.DATABASE_URL = ownerUrl(own);
  }, 120_000);
  afterAll(() => clients.owner?.end());
  return clients;
}

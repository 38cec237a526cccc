import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { SUPERUSER } from '../harness/cluster';
import { connect, createEmptyDatabase, type ConnectionInfo, type Role } from '../harness/database';
import { SEALED_TEMPLATE, sharedDatabase } from './shared-server';

/**
 * Per test file: a database of its own, a copy of the worker's sealed template (dropped after the
 * file), or with `pgCron` the worker's waiting-list database, the one pg_cron runs in. `api` logs
 * in as PostgREST does (authenticator), `owner` as the schema owner.
 */
export function useDatabase({ pgCron = false } = {}) {
  const clients = {} as { api: Client; owner: Client; info: ConnectionInfo };
  beforeAll(async () => {
    clients.info = pgCron
      ? sharedDatabase()
      : await createEmptyDatabase(sharedDatabase(), `file_${randomBytes(6).toString('hex')}`, SEALED_TEMPLATE);
    clients.api = await connect(clients.info, 'authenticator');
    clients.owner = await connect(clients.info, 'postgres');
  });
  afterAll(async () => {
    await clients.api?.end();
    await clients.owner?.end();
    if (pgCron || !clients.info) return;
    const admin = await connect({ ...clients.info, database: 'postgres' }, SUPERUSER);
    await admin.query(`drop database ${clients.info.database} with (force)`).finally(() => admin.end());
  });
  return clients;
}

/** Runs `work` on a new connection of `role`, and always disconnects. */
export async function withClient<T>(info: ConnectionInfo, role: Role, work: (client: Client) => Promise<T>) {
  const client = await connect(info, role);
  return work(client).finally(() => client.end());
}

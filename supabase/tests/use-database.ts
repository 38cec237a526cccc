import type { Client } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { connect } from '../harness/database';
import { sharedDatabase } from './shared-server';

/** Per test file: `api` logs in as PostgREST does (authenticator), `owner` as the schema owner. */
export function useDatabase() {
  const clients = {} as { api: Client; owner: Client };
  beforeAll(async () => {
    const info = sharedDatabase();
    clients.api = await connect(info, 'authenticator');
    clients.owner = await connect(info, 'postgres');
  });
  afterAll(async () => {
    await clients.api?.end();
    await clients.owner?.end();
  });
  return clients;
}

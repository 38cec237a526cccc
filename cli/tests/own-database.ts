/**
 * A database of its own for a CLI test file, migrated like the shared one, in the db tests'
 * throwaway server: the CLI tests seed, suppress and email the whole list, which must not
 * disturb the other files' rows (nor theirs these tests' counts). The CLI finds it through
 * DATABASE_URL, which its child processes inherit.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connect, createEmptyDatabase, ownerUrl } from '../../supabase/tests/database';
import { migrate } from '../../supabase/tests/migrations';

export function useOwnDatabase(name: string): { owner: Client } {
  const clients = {} as { owner: Client };
  beforeAll(async () => {
    const own = await createEmptyDatabase(inject('database'), name);
    await migrate(own);
    clients.owner = await connect(own, 'postgres');
    process.env.DATABASE_URL = ownerUrl(own);
  }, 120_000);
  afterAll(() => clients.owner?.end());
  return clients;
}

/**
 * A database of its own for a CLI test file, in the db tests' throwaway server: the CLI tests
 * seed, suppress and email the whole list, which must not disturb the other files' rows (nor
 * theirs these tests' counts). A copy of the server's migrated template (every migration, not
 * sealed). The CLI finds it through DATABASE_URL, which its child processes inherit.
 * `migrated: false`: an empty database, as a project looks before its migrations are applied.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { SUPERUSER } from '../../supabase/harness/cluster';
import { connect, createEmptyDatabase, ownerUrl, type ConnectionInfo } from '../../supabase/harness/database';
import { MIGRATED_TEMPLATE, sharedDatabase } from '../../supabase/tests/shared-server';
import { withClient } from '../../supabase/tests/use-database';

export type OwnDatabase = { owner: Client; info: ConnectionInfo; url: string };

export function useOwnDatabase(name: string, { migrated = true } = {}) {
  const own = {} as OwnDatabase;
  beforeAll(async () => {
    own.info = await createEmptyDatabase(sharedDatabase(), name, migrated ? MIGRATED_TEMPLATE : undefined);
    own.owner = await connect(own.info, 'postgres');
    own.url = ownerUrl(own.info);
    process.env.DATABASE_URL = own.url;
  }, 120_000);
  afterAll(() => own.owner?.end());
  return own;
}

/** Runs `sql` as the superuser (what only Supabase's own roles may do, e.g. turn triggers off). */
export const asSuperuser = (own: OwnDatabase, sql: string, values: unknown[] = []) =>
  withClient(own.info, SUPERUSER, (superuser) => superuser.query(sql, values));

/** The rows of `from` (a table, and a where clause if any: `public.waiting_list where email is not null`). */
export const countRows = async (client: Client, from: string, values: unknown[] = []) =>
  (await client.query<{ n: number }>(`select count(*)::int as n from ${from}`, values)).rows[0].n;

/** The rows of the list still holding an address as typed: not sealed yet. */
export const plaintextRows = (own: OwnDatabase) => countRows(own.owner, 'public.waiting_list where email is not null');

import { inject } from 'vitest';
import type { ConnectionInfo } from '../harness/database';

/**
 * The db project runs two test files at a time, each worker on a throwaway server of its own
 * (global-setup.ts starts one per worker), each file in a database of its own on it.
 * VITEST_POOL_ID numbers the workers from 1.
 */
function serverIndex() {
  const servers = inject('databases').length;
  const index = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  if (!Number.isInteger(index) || index < 0 || index >= servers) {
    throw new Error(`Worker VITEST_POOL_ID=${process.env.VITEST_POOL_ID} has no server: ${servers} were started.`);
  }
  return index;
}

/**
 * In each server, a database with every migration and the seed, not sealed, that nobody uses: what
 * a CLI test file's own database is copied from (cli/tests/own-database.ts).
 */
export const MIGRATED_TEMPLATE = 'migrated_template';

/** The same, sealed: what a database test file's own database is copied from (use-database.ts). */
export const SEALED_TEMPLATE = 'sealed_template';

/** This worker's waiting-list database (every migration, sealed), the one pg_cron runs in. */
export const sharedDatabase = (): ConnectionInfo => inject('databases')[serverIndex()];

/** The private key (armored) that opens this worker's sealed lists: the shared one and every copy. */
export const sharedOwnerKey = (): string => inject('ownerKeys')[serverIndex()];

/** The log file of this worker's server (server-log.ts reads it). */
export const sharedServerLog = (): string => inject('serverLogs')[serverIndex()];

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startCluster, SUPERUSER } from '../harness/cluster';
import { connect, createEmptyDatabase, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase, migrate } from '../harness/migrations';
import { keyPair, sealList } from '../harness/sealed';
import { MIGRATED_TEMPLATE, SEALED_TEMPLATE } from './shared-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each worker's server, by its waiting-list database, where pg_cron runs (shared-server.ts picks a worker's). */
    databases: ConnectionInfo[];
    /** The owner private key (armored) of each server's sealed lists (sealed.ts, storedAs). */
    ownerKeys: string[];
    /** Each server's log file (server-log.ts). */
    serverLogs: string[];
  }
}

/**
 * A throwaway server with the waiting list (pg_cron runs there), the migrated template, and the
 * sealed template the test files' databases are copied from: both lists sealed with one owner key,
 * as a live one is after `waitlist keys init`.
 */
async function startServer() {
  const cluster = await startCluster();
  try {
    const database = await createWaitlistDatabase(cluster);
    await migrate(await createEmptyDatabase(database, MIGRATED_TEMPLATE));
    const pair = await keyPair();
    let ownerKey = '';
    for (const info of [database, await createEmptyDatabase(database, SEALED_TEMPLATE, MIGRATED_TEMPLATE)]) {
      const owner = await connect(info, 'postgres');
      ownerKey = await sealList(owner, pair).finally(() => owner.end());
    }
    // Frozen, so no copy spends its first requests pruning and freezing what sealing left.
    const superuser = await connect({ ...database, database: SEALED_TEMPLATE }, SUPERUSER);
    await superuser.query('vacuum (freeze)').finally(() => superuser.end());
    return { cluster, database, ownerKey };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/**
 * One throwaway server per worker of the db project, for the whole run; stopped and deleted
 * afterwards, pass or fail. Every test's signup is sealed.
 */
export default async function setup(project: TestProject) {
  // The files the tests and the commands they start write (owner keys, letters, exports): in one
  // folder, taken back with the servers after the run. Others pass through, not list (as root, the
  // servers run as postgres, in folders of their own inside).
  const temporary = mkdtempSync(join(tmpdir(), 'waitlist-tests-'));
  chmodSync(temporary, 0o711);
  process.env.TMPDIR = temporary;
  const started = await Promise.allSettled(Array.from({ length: project.config.maxWorkers }, startServer));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = () =>
    Promise.all(servers.map(({ cluster }) => cluster.stop())).finally(() =>
      rmSync(temporary, { recursive: true, force: true }),
    );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const databases = servers.map(({ database }) => database);
  const ownerKeys = servers.map(({ ownerKey }) => ownerKey);
  const serverLogs = servers.map(({ cluster }) => cluster.logFile);
  project.provide('databases', databases);
  project.provide('ownerKeys', ownerKeys);
  project.provide('serverLogs', serverLogs);
  return stopAll;
}

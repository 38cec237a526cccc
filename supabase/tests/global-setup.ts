import type { TestProject } from 'vitest/node';
import { startCluster } from '../harness/cluster';
import { connect, type ConnectionInfo } from '../harness/database';
import { createWaitlistDatabase } from '../harness/migrations';
import { sealList } from '../harness/sealed';

declare module 'vitest' {
  export interface ProvidedContext {
    database: ConnectionInfo;
    /** The shared database's owner private key, armored (sealed.ts, storedAs). */
    ownerKey: string;
  }
}

/**
 * One throwaway server for the whole db run; stopped and deleted afterwards, pass or fail. Its
 * list is sealed, as a live one is after `waitlist keys init`: every test's signup is sealed.
 */
export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  try {
    const database = await createWaitlistDatabase(cluster);
    const owner = await connect(database, 'postgres');
    project.provide('ownerKey', await sealList(owner).finally(() => owner.end()));
    project.provide('database', database);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return () => cluster.stop();
}

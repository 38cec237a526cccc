import type { TestProject } from 'vitest/node';
import { startCluster } from './cluster';
import type { ConnectionInfo } from './database';
import { createWaitlistDatabase } from './migrations';

declare module 'vitest' {
  export interface ProvidedContext {
    database: ConnectionInfo;
  }
}

/** One throwaway server for the whole db run; stopped and deleted afterwards, pass or fail. */
export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  try {
    project.provide('database', await createWaitlistDatabase(cluster));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return () => cluster.stop();
}

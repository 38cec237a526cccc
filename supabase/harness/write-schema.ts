/** npm run schema: writes supabase/schema.sql from a throwaway database with every migration applied. */
import { writeFileSync } from 'node:fs';
import { majorVersion, startCluster } from './cluster';
import { createWaitlistDatabase } from './migrations';
import { dumpSchema, SCHEMA_FILE, SCHEMA_MAJOR } from './schema';

const cluster = await startCluster();
try {
  if (majorVersion(cluster.binDir) !== SCHEMA_MAJOR) {
    throw new Error(`supabase/schema.sql is written with PostgreSQL ${SCHEMA_MAJOR}; this server is another major.`);
  }
  writeFileSync(SCHEMA_FILE, await dumpSchema(await createWaitlistDatabase(cluster)));
  console.log(`Wrote ${SCHEMA_FILE}`);
} finally {
  await cluster.stop();
}

/**
 * supabase/schema.sql is what the migrations make: a migration that changes the database without
 * `npm run schema` fails here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { majorVersion } from '../harness/cluster';
import { dumpSchema, objectsOf, SCHEMA_FILE, SCHEMA_MAJOR } from '../harness/schema';
import { sharedDatabase } from './shared-server';

// The shared database: migrated as a project is, pg_cron included (it lives in one database only).
const database = sharedDatabase();

it('supabase/schema.sql matches the migrated database (npm run schema rewrites it)', async () => {
  const dump = await dumpSchema(database);
  const file = readFileSync(SCHEMA_FILE, 'utf8');
  if (majorVersion(database.binDir) === SCHEMA_MAJOR) {
    expect(dump, 'supabase/schema.sql is stale: run npm run schema').toBe(file);
  } else {
    // Another major prints some definitions differently; the objects must still be the same.
    expect(objectsOf(dump), 'supabase/schema.sql is stale: run npm run schema').toEqual(objectsOf(file));
  }
});

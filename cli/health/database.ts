/**
 * The database's half, as the owner, with DATABASE_URL (verified as cli/connect/database.ts does). Every wait ends within
 * the bound: the connection is cut when it runs out, and the server stops any statement first.
 * Read-only: the session refuses to write.
 */
import pg from 'pg';
import { databaseConfig } from '../connect/database.ts';
import { checkCron } from './cron.ts';
import { setup, type Finding } from './finding.ts';
import { RESTORE_PROJECT } from './fixes.ts';
import { checkGuardData, checkLimits, checkOrigins } from './guard.ts';
import { checkLogging } from './logging.ts';
import { checkMigrations } from './migrations.ts';
import { checkSealing } from './sealing.ts';
import { checkUnsubscribeRole } from './unsubscribe-role.ts';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function checkDatabase(site: string | undefined, seconds: number): Promise<Finding[]> {
  const db = new pg.Client(databaseConfig());
  db.on('error', () => {}); // a cut connection also rejects the pending connect or query, reported below
  let timedOut = false;
  const cut = setTimeout(() => {
    timedOut = true;
    db.connection.stream.destroy();
  }, seconds * 1000);
  const why = (error: unknown) => (timedOut ? `no answer within ${seconds} s` : message(error));
  try {
    try {
      await db.connect();
    } catch (error) {
      return [
        setup(
          'database',
          `Could not connect with DATABASE_URL: ${why(error)}.`,
          'Use the session pooler connection string and your database password (docs/operations.md, ' +
            `"The connection"). ${RESTORE_PROJECT}`,
        ),
      ];
    }
    await db.query(
      `select set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false),
              set_config('default_transaction_read_only', 'on', false)`,
      [`${seconds * 1000}`],
    );
    const migrations = await checkMigrations(db);
    if (migrations.outcome !== 'ok') return [migrations];
    return [
      migrations,
      await checkOrigins(db, site),
      await checkLimits(db),
      ...(await checkCron(db)),
      await checkGuardData(db),
      await checkSealing(db),
      await checkUnsubscribeRole(db),
      await checkLogging(db),
    ];
  } catch (error) {
    return [setup('database', `The checks stopped: ${why(error)}.`, `Run the check again. ${RESTORE_PROJECT}`)];
  } finally {
    clearTimeout(cut);
    await db.end().catch(() => {});
  }
}

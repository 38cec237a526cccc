/**
 * The database's half, with DATABASE_URL, read-only but for one signup it rolls back (./signup.ts):
 * every wait ends within the bound (the server stops a statement, the connection is cut). The owner
 * runs every check; a role with only the grants docs/operations.md lists runs those it may read.
 */
import pg from 'pg';
import { databaseConfig } from '../../connect/database.ts';
import { checkCron } from './cron.ts';
import { checkExposure } from './exposure.ts';
import { RESTORE_PROJECT, setup, skipped, type Finding } from '../../findings/finding.ts';
import { checkGuardData, checkLimits, checkOrigins } from './guard.ts';
import { checkLogging } from '../../database/logging.ts';
import { checkMigrations } from '../../database/migrations.ts';
import { checkKeyCopies, checkSealing } from './sealing.ts';
import { checkSignup } from './signup.ts';
import { checkUnsubscribeRole } from './unsubscribe-role.ts';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A check the role may not run (42501: the daily check's role, with some of the grants only) is skipped, and why. */
async function ifReadable(check: string, run: () => Promise<Finding | Finding[]>): Promise<Finding[]> {
  try {
    return [await run()].flat();
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    return [
      skipped(
        check,
        `DATABASE_URL's role may not read what this check reads (${message(error)}): ` +
          'docs/operations.md, "A role for the daily check", lists the grants.',
      ),
    ];
  }
}

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
          'Use the session pooler connection string and your database password ' +
            `(docs/operations.md, "The connection"). ${RESTORE_PROJECT}`,
        ),
      ];
    }
    await db.query(
      `select set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false),
              set_config('default_transaction_read_only', 'on', false)`,
      [`${seconds * 1000}`],
    );
    const migrations = await checkMigrations(db);
    // Whether the public key reads anything does not wait for the migrations.
    const exposure = await checkExposure(db);
    if (migrations.outcome !== 'ok') return [migrations, ...exposure];
    return [
      migrations,
      ...(await ifReadable('origins', () => checkOrigins(db, site))),
      ...(await ifReadable('limits', () => checkLimits(db))),
      ...(await ifReadable('pg_cron', () => checkCron(db))),
      ...(await ifReadable('guard data', () => checkGuardData(db))),
      ...(await ifReadable('sealing', () => checkSealing(db))),
      ...(await ifReadable('key copies', () => checkKeyCopies(db))),
      ...(await ifReadable('signup', () => checkSignup(db, site))),
      ...(await ifReadable('unsubscribe role', () => checkUnsubscribeRole(db))),
      ...(await ifReadable('logs', () => checkLogging(db))),
      ...exposure,
    ];
  } catch (error) {
    return [setup('database', `The checks stopped: ${why(error)}.`, `Run the check again. ${RESTORE_PROJECT}`)];
  } finally {
    clearTimeout(cut);
    await db.end().catch(() => {});
  }
}

/**
 * keys init (and health, through the same check) names each logging setting that would write a
 * signup's address to the server log, with its fix; with the defaults it names none.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../supabase/harness/database';
import { loggingRisks } from '../health/logging';
import { keysInit } from './keys-init';
import { asSuperuser, useOwnDatabase } from './own-database';

const db = useOwnDatabase('cli_logging');
const NAME = 'cli_logging';

/** The risks a new session of the database sees (database-level settings apply to new sessions). */
async function risksNow(): Promise<string[]> {
  const session = await connect(db.info, 'postgres');
  try {
    return await loggingRisks(session);
  } finally {
    await session.end();
  }
}

describe('logging settings that would write an address', () => {
  it('names none with the server defaults', async () => {
    expect(await risksNow()).toEqual([]);
  });

  it('names log_statement, log_min_duration_statement and log_parameter_max_length_on_error, each with its fix', async () => {
    await asSuperuser(db, `alter database ${NAME} set log_statement = 'all'`);
    await asSuperuser(db, `alter database ${NAME} set log_min_duration_statement = 250`);
    await asSuperuser(db, `alter database ${NAME} set log_parameter_max_length_on_error = -1`);
    expect(await risksNow()).toEqual([
      "log_statement = 'all' logs every signup with its parameters: set it to 'ddl' or 'none'.",
      'log_min_duration_statement = 250 ms logs a signup slower than that with its parameters: set it to -1, ' +
        'or log_parameter_max_length to 0.',
      "log_parameter_max_length_on_error = -1 logs a refused signup's parameters (a duplicate, a malformed " +
        'address): set it to 0.',
    ]);
    const init = await keysInit();
    expect(init.result.code, init.result.stderr).toBe(0);
    expect(init.result.stderr).toContain(
      "Warning: the server log receives signups' addresses: log_statement = 'all' logs every signup",
    );
    expect(init.result.stderr).toContain('log_min_duration_statement = 250 ms');
  });

  it('statements logged without their parameters (log_parameter_max_length = 0) keep the address out', async () => {
    await asSuperuser(db, `alter database ${NAME} set log_parameter_max_length = 0`);
    await asSuperuser(db, `alter database ${NAME} reset log_parameter_max_length_on_error`);
    expect(await risksNow()).toEqual([]);
  });
});

/**
 * The server log with every threshold on for the database (log_statement = 'all',
 * log_min_duration_statement = 0, the sampled ones at 0 and 1, parameters in full, on errors too,
 * auto_explain with nested plans, debug_print_plan): the migration 20261128100400_logging.sql
 * gives `authenticator` (the Data API) and `postgres` (the owner's commands) settings of their own,
 * so their statements are logged without a value (the log is read with each plan constant's bytes
 * as text, server-log.ts). Signups through the PostgREST emulation and the owner's erase leave
 * no address in the log; a session without those role settings, given the same, does.
 */
import { describe, expect, it } from 'vitest';
import { insertEmail } from '../harness/api-request';
import { SUPERUSER } from '../harness/cluster';
import { connect } from '../harness/database';
import { asSuperuser, useOwnDatabase } from '../../cli/tests/own-database';
import { waitlist } from '../../cli/tests/run-cli';
import { serverLogFromNow } from './server-log';
import { withClient } from './use-database';

const db = useOwnDatabase('server_log');
const THRESHOLDS = [
  "log_statement = 'all'",
  'log_min_duration_statement = 0',
  'log_parameter_max_length = -1',
  'log_parameter_max_length_on_error = -1',
  'auto_explain.log_min_duration = 0',
  'auto_explain.log_nested_statements = on',
  'log_min_duration_sample = 0',
  'log_transaction_sample_rate = 1',
  'debug_print_plan = on',
];
const SIGNUPS = ['Log.Probe@Example.com', 'log-probe-2@example.org'];
const MALFORMED = 'not-an-address-log-probe';

describe('the server log with every threshold on', () => {
  it('holds no address from signups, refusals or an erase, though it logs their statements', async () => {
    for (const setting of THRESHOLDS) await asSuperuser(db, `alter database server_log set ${setting}`);
    const readLog = serverLogFromNow();
    await withClient(db.info, 'authenticator', async (api) => {
      for (const address of SIGNUPS) await insertEmail(api, address);
      await expect(insertEmail(api, SIGNUPS[0])).rejects.toMatchObject({ code: '23505' });
      await expect(insertEmail(api, MALFORMED)).rejects.toMatchObject({ code: '23514' });
    });
    const erased = await waitlist(['erase', SIGNUPS[1], '--yes']);
    expect(erased.code, erased.stderr).toBe(0);

    // A session with no role settings of its own, given the database's: its parameter is logged.
    const control = await connect(db.info, SUPERUSER);
    await control.query('select $1::text', ['control-probe@example.com']).finally(() => control.end());

    const log = readLog();
    expect(log).toContain("execute <unnamed>: select set_config('role', $1, true)"); // the API's statements
    expect(log).toContain('duplicate key value violates unique constraint'); // the refusal
    expect(log).toContain('delete from public.waiting_list'); // the erase
    expect(log).toContain('control-probe@example.com');
    for (const address of [...SIGNUPS, MALFORMED]) {
      for (const form of [address, address.toLowerCase()]) expect(log).not.toContain(form);
    }
  });

  it('the role settings are those the migration set', async () => {
    const owner = await connect(db.info, 'postgres');
    const { rows } = await owner
      .query<{ role: string; config: string[] }>(
        `select r.rolname as role, s.setconfig as config from pg_db_role_setting s
         join pg_roles r on r.oid = s.setrole where s.setdatabase = 0 and r.rolname in ('authenticator', 'postgres')
         order by r.rolname`,
      )
      .finally(() => owner.end());
    const expected = expect.arrayContaining([
      'log_parameter_max_length=0',
      'log_parameter_max_length_on_error=0',
      'auto_explain.log_min_duration=-1',
      'debug_print_plan=off',
    ]);
    expect(rows).toEqual([
      { role: 'authenticator', config: expected },
      { role: 'postgres', config: expected },
    ]);
  });
});

/**
 * `waitlist health` and `keys init` name each logging setting that would write an address to the
 * server log, wherever it is set (the server, the database, a role, a role in this database, a
 * request role that PostgREST applies), with its fix. Each case turns one setting on in this
 * file's own database (over the migrations' role settings, which keep parameters out), shows that
 * a signup's address then reaches the shared server's log, and reads what the owner is told.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { insertEmail } from '../../supabase/harness/api-request';
import { hasLibrary } from '../../supabase/harness/cluster';
import { connect } from '../../supabase/harness/database';
import { serverLogFromNow } from '../../supabase/tests/server-log';
import { sharedDatabase } from '../../supabase/tests/shared-server';
import { withClient } from '../../supabase/tests/use-database';
import { checkLogging, loggingRisks } from '../database/logging';
import { keysInit } from './keys-init';
import { asSuperuser, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';

const db = useOwnDatabase('cli_logging');
const NAME = 'cli_logging';
const AS_API = `ALTER ROLE authenticator IN DATABASE ${NAME} SET`;
const PARAMETERS_OFF = `${AS_API} log_parameter_max_length = 0`;

/** The risks a new session of the database sees (role and database settings apply from login on). */
const risksNow = () => withClient(db.info, 'postgres', loggingRisks);

/** The risks a new session of `role` (any login role of the test server) sees. */
async function risksAs(role: string) {
  const session = new pg.Client({ host: db.info.host, port: db.info.port, database: db.info.database, user: role });
  await session.connect();
  try {
    return await loggingRisks(session);
  } finally {
    await session.end();
  }
}

/**
 * Each setting for `authenticator` in this database only: the server's other databases keep theirs.
 * One after another: two first settings at once would both insert the role's pg_db_role_setting row.
 */
async function forTheApi(settings: Record<string, string>) {
  for (const [name, value] of Object.entries(settings)) {
    await asSuperuser(db, `alter role authenticator in database ${NAME} set ${name} = '${value}'`);
  }
}

let signups = 0;
/** A new address signed up through a new Data API session (role settings apply at login); its log so far. */
async function signUp(twice = false) {
  const address = `logged.${++signups}@example.com`;
  const readLog = serverLogFromNow();
  const api = await connect(db.info, 'authenticator');
  try {
    await insertEmail(api, address);
    if (twice) await insertEmail(api, address).catch(() => undefined); // 409 23505, logged as an error
  } finally {
    await api.end();
  }
  return { address, log: readLog() };
}

/** With `settings` for the Data API, a signup's address reaches the log, and `named` is all the owner is told. */
async function loggedAndNamed(settings: Record<string, string>, named: string, twice = false) {
  await forTheApi(settings);
  const { address, log } = await signUp(twice);
  expect(log).toContain(address);
  expect(await risksNow()).toEqual([named]);
}

afterEach(async () => {
  await asSuperuser(db, `alter role authenticator in database ${NAME} reset all`);
  await asSuperuser(db, `alter role postgres in database ${NAME} reset all`);
  await asSuperuser(db, `alter database ${NAME} reset all`);
});

describe('logging settings that would write an address', () => {
  it('names none with the migrations applied, even with thresholds on for the whole database', async () => {
    for (const setting of [
      "log_statement = 'all'",
      'log_min_duration_statement = 0',
      'log_parameter_max_length = -1',
      'log_parameter_max_length_on_error = -1',
      'auto_explain.log_min_duration = 0',
      'debug_print_plan = on',
    ]) {
      await asSuperuser(db, `alter database ${NAME} set ${setting}`);
    }
    expect(await risksNow()).toEqual([]);
    const owner = await connect(db.info, 'postgres');
    const finding = await checkLogging(owner).finally(() => owner.end());
    expect(finding).toMatchObject({ outcome: 'ok', says: 'No logging setting writes an address to the server log.' });
  });

  it("reads DATABASE_URL's role only where it may send addresses: not the daily check's", async () => {
    const reader = 'cli_logging_reader';
    await asSuperuser(db, `create role ${reader} login`);
    try {
      await asSuperuser(db, `alter database ${NAME} set log_min_duration_statement = 0`);
      expect(await risksAs(reader)).toEqual([]);
      await asSuperuser(db, `grant usage on schema private to ${reader}`);
      await asSuperuser(db, `grant execute on function private.address_hash(text) to ${reader}`);
      expect(await risksAs(reader)).toEqual([
        `Sessions of ${reader}: log_min_duration_statement = '0' (ALTER DATABASE ${NAME} SET) logs each statement ` +
          `slower than that, with its parameters. Fix: ALTER ROLE ${reader} SET log_parameter_max_length = 0, or ` +
          'set it to -1.',
      ]);
    } finally {
      await asSuperuser(db, `drop owned by ${reader}`);
      await asSuperuser(db, `drop role ${reader}`);
    }
  });

  it.each<{ settings: Record<string, string>; named: string; twice?: boolean }>([
    {
      settings: { log_statement: 'all', log_parameter_max_length: '-1' },
      named:
        `The Data API: log_statement = 'all' (${AS_API}) logs every statement, with its parameters. ` +
        `Fix: ${PARAMETERS_OFF}, or set it to 'ddl' or 'none'.`,
    },
    {
      settings: { log_min_duration_statement: '0', log_parameter_max_length: '-1' },
      named:
        `The Data API: log_min_duration_statement = '0' (${AS_API}) logs each statement slower than that, with its ` +
        `parameters. Fix: ${PARAMETERS_OFF}, or set it to -1.`,
    },
    {
      settings: { log_min_duration_sample: '0', log_parameter_max_length: '-1' },
      named:
        `The Data API: log_min_duration_sample = '0' (${AS_API}) logs a sample of the statements slower than that, ` +
        `with its parameters. Fix: ${PARAMETERS_OFF}, or set it to -1.`,
    },
    {
      settings: { log_transaction_sample_rate: '1', log_parameter_max_length: '-1' },
      named:
        `The Data API: log_transaction_sample_rate = '1' (${AS_API}) logs every statement of a sample of ` +
        `transactions, with its parameters. Fix: ${PARAMETERS_OFF}, or set it to 0.`,
    },
    {
      settings: { log_parameter_max_length_on_error: '-1' },
      twice: true,
      named:
        `The Data API: log_parameter_max_length_on_error = '-1' (${AS_API}) logs a refused statement's parameters ` +
        `(a duplicate signup, a malformed address). Fix: ${AS_API} log_parameter_max_length_on_error = 0.`,
    },
    {
      settings: { debug_print_plan: 't' }, // log_parameter_max_length = 0 (the migration's) does not apply
      named:
        `The Data API: debug_print_plan = 't' (${AS_API}) logs each statement's plan, whose constants hold its ` +
        `parameters' bytes (log_parameter_max_length aside). Fix: ${AS_API} debug_print_plan = off.`,
    },
    {
      settings: { 'auto_explain.log_min_duration': '0', 'auto_explain.log_nested_statements': 'on' },
      named:
        `The Data API: auto_explain.log_min_duration = '0' (${AS_API}) logs the plans of statements slower than ` +
        "that, and a plan shows a parameter's value (PostgreSQL 16 and later also list the parameters). " +
        `Fix: ${AS_API} auto_explain.log_min_duration = -1.`,
    },
  ])('$settings: the signup is logged with its address, and the owner is told', async (test) => {
    await loggedAndNamed(test.settings, test.named, test.twice);
  });

  it.each(['debug_print_parse', 'debug_print_rewritten'])(
    "%s shows a signup's parameter as a Param, not its address: not named",
    async (name) => {
      await forTheApi({ [name]: 'on' });
      const { address, log } = await signUp();
      expect(log).toContain(name === 'debug_print_parse' ? 'LOG:  parse tree:' : 'LOG:  rewritten parse tree:');
      expect(log).not.toContain(address);
      expect(await risksNow()).toEqual([]);
    },
  );

  // pgaudit, preloaded by the harness (apt-get install postgresql-<major>-pgaudit; .ci/run does).
  it('pgaudit with log_parameter: the signup is logged with its address, and the owner is told', async () => {
    expect(
      hasLibrary(sharedDatabase().binDir, 'pgaudit'),
      'pgaudit is not installed: apt-get install postgresql-<major>-pgaudit (.ci/run does)',
    ).toBe(true);
    await loggedAndNamed(
      { 'pgaudit.log': 'all', 'pgaudit.log_parameter': 'on' },
      `The Data API: pgaudit.log_parameter = 'on' (${AS_API}) logs audited statements' parameters. ` +
        `Fix: ${AS_API} pgaudit.log_parameter = off.`,
    );
  });

  it("pgaudit.log = 'NONE' audits nothing, as pgaudit reads it (case-insensitively): nothing named", async () => {
    await forTheApi({ 'pgaudit.log': 'NONE', 'pgaudit.log_parameter': 'on' });
    const { address, log } = await signUp();
    expect(log).not.toContain(address);
    expect(await risksNow()).toEqual([]);
  });

  // The whole server's roles: pgaudit.log_parameter alone logs nothing where pgaudit.log is unset.
  it('names ALTER ROLE ALL SET as its own layer, with ALTER ROLE ALL RESET as the fix', async () => {
    await forTheApi({ 'pgaudit.log': 'all' });
    await asSuperuser(db, 'alter role all set pgaudit.log_parameter = on');
    try {
      const { address, log } = await signUp();
      expect(log).toContain(address);
      expect(await risksNow()).toEqual([
        "The Data API: pgaudit.log_parameter = 'on' (ALTER ROLE ALL SET) logs audited statements' parameters. " +
          'Fix: ALTER ROLE ALL RESET pgaudit.log_parameter.',
      ]);
    } finally {
      await asSuperuser(db, 'alter role all reset pgaudit.log_parameter');
    }
  });

  it("log_statement = 'mod' logs an erase with its address, not a signup (a SELECT over an INSERT)", async () => {
    await forTheApi({ log_statement: 'mod', log_parameter_max_length: '-1' });
    await asSuperuser(db, `alter role postgres in database ${NAME} set log_statement = 'mod'`);
    await asSuperuser(db, `alter role postgres in database ${NAME} set log_parameter_max_length = -1`);
    const { address, log } = await signUp();
    expect(log).not.toContain(address);
    const readLog = serverLogFromNow();
    const erased = await waitlist(['erase', address, '--yes']);
    expect(erased.code, erased.stderr).toBe(0);
    expect(readLog()).toContain(address);
    expect(await risksNow()).toEqual([
      `Sessions of postgres: log_statement = 'mod' (ALTER ROLE postgres IN DATABASE ${NAME} SET) logs every ` +
        `statement that writes, with its parameters. Fix: ALTER ROLE postgres IN DATABASE ${NAME} SET ` +
        "log_parameter_max_length = 0, or set it to 'ddl' or 'none'.",
    ]);
  });

  it("names ALTER ROLE authenticator SET log_statement = 'all', and keys init warns of it", async () => {
    await forTheApi({ log_parameter_max_length: '-1' });
    await asSuperuser(db, `alter role authenticator set log_statement = 'all'`);
    try {
      const named =
        "The Data API: log_statement = 'all' (ALTER ROLE authenticator SET) logs every statement, with its " +
        `parameters. Fix: ${PARAMETERS_OFF}, or set it to 'ddl' or 'none'.`;
      expect(await risksNow()).toEqual([named]);
      const init = await keysInit();
      expect(init.result.code, init.result.stderr).toBe(0);
      expect(init.result.stderr).toContain(`Warning: the server log receives addresses: ${named}`);
      const owner = await connect(db.info, 'postgres');
      const finding = await checkLogging(owner).finally(() => owner.end());
      expect(finding.outcome).toBe('problem');
      expect(finding.says).toBe(`The server log receives addresses: ${named}`);
    } finally {
      await asSuperuser(db, 'alter role authenticator reset log_statement');
    }
  });

  it("names a request role's setting that PostgREST applies (context user), not one it skips", async () => {
    await asSuperuser(db, 'alter role anon set log_parameter_max_length_on_error = -1');
    await asSuperuser(db, `alter role anon set log_statement = 'all'`); // superuser-only: PostgREST skips it
    await asSuperuser(db, 'alter role anon set debug_print_plan = on'); // context user: PostgREST applies it
    try {
      expect(await risksNow()).toEqual([
        "The Data API as anon: log_parameter_max_length_on_error = '-1' (ALTER ROLE anon SET, applied to each " +
          "request by PostgREST) logs a refused statement's parameters (a duplicate signup, a malformed address). " +
          "Fix: ALTER ROLE anon RESET log_parameter_max_length_on_error, then NOTIFY pgrst, 'reload config'.",
        "The Data API as anon: debug_print_plan = 'on' (ALTER ROLE anon SET, applied to each request by " +
          "PostgREST) logs each statement's plan, whose constants hold its parameters' bytes " +
          '(log_parameter_max_length aside). Fix: ALTER ROLE anon RESET debug_print_plan, then NOTIFY pgrst, ' +
          "'reload config'.",
      ]);
    } finally {
      await asSuperuser(db, 'alter role anon reset all');
    }
  });
});

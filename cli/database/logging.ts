/**
 * Whether the server's log would receive an address: PostgREST sends each signup's body as a query
 * parameter, and erase and suppress send addresses the same way, so a setting that logs statements
 * or refused statements with their parameters, or plans (which show a parameter's value), writes
 * one to the log (supabase/security.md, "Logs"). Each session that sends addresses is read with its
 * own settings (logging-settings.ts); each setting that would log one is named once, with its fix.
 */
import type pg from 'pg';
import { ok, problem, type Finding } from '../findings/finding.ts';
import { loggingSessions, type Origin, type Session, type Setting } from './logging-settings.ts';

/** Unset, or a negative number: the setting logs nothing. */
const off = (setting?: Setting) => !setting || setting.value.trim().startsWith('-');
const zero = (setting?: Setting) => setting !== undefined && Number.parseFloat(setting.value) === 0;
/** pgaudit reads its class list case-insensitively: 'NONE' logs nothing, as 'none' does. */
const audits = (setting?: Setting) => !['', 'none'].includes(setting?.value.trim().toLowerCase() ?? '');
/** PostgreSQL's reading of a boolean (parse_bool): 'on', '1', or any start of 'true' or 'yes'. */
function truthy(setting?: Setting) {
  const value = setting?.value.trim().toLowerCase() ?? '';
  return value === 'on' || value === '1' || (value !== '' && ('true'.startsWith(value) || 'yes'.startsWith(value)));
}

/** Where a setting is set, as the statement that set it. */
function where({ origin }: Setting) {
  if (origin.layer === 'server') return "the server's configuration";
  if (origin.layer === 'all roles') return 'ALTER ROLE ALL SET';
  if (origin.layer === 'database') return `ALTER DATABASE ${origin.database} SET`;
  const inDatabase = origin.layer === 'role in database' ? ` IN DATABASE ${origin.database}` : '';
  const role = `ALTER ROLE ${origin.role}${inDatabase} SET`;
  return origin.layer === 'request' ? `${role}, applied to each request by PostgREST` : role;
}

const shown = (setting: Setting) => `${setting.name} = '${setting.value}' (${where(setting)})`;

/**
 * The statement that gives `session` the value `assignment` over the one it has from `origin`: a
 * role's setting wins over the server's, ALTER ROLE ALL's (reset there instead: every role has it)
 * and the database's, one in this database over that; a request role's goes by a reset and reload.
 */
function setFor(session: Session, origin: Origin, assignment: string) {
  const name = assignment.split(' ')[0];
  if (origin.layer === 'request') return `ALTER ROLE ${origin.role} RESET ${name}, then NOTIFY pgrst, 'reload config'`;
  if (origin.layer === 'all roles') return `ALTER ROLE ALL RESET ${name}`;
  if (origin.layer === 'role in database') {
    return `ALTER ROLE ${session.login} IN DATABASE ${origin.database} SET ${assignment}`;
  }
  return `ALTER ROLE ${session.login} SET ${assignment}`;
}

type Risk = { cause: Setting; says: string; fix: string };

/** The settings that log statements, and so each statement's parameters unless log_parameter_max_length is 0. */
function statementRisks(session: Session): Risk[] {
  const get = (name: string) => session.settings.get(name);
  const parameters = get('log_parameter_max_length');
  if (zero(parameters)) return [];
  // The role's own 0: resetting ALTER ROLE ALL's -1 could leave the default, -1.
  const origin: Origin =
    !parameters || parameters.origin.layer === 'all roles' ? { layer: 'server' } : parameters.origin;
  const noParameters = setFor(session, origin, 'log_parameter_max_length = 0');
  const risks: Risk[] = [];
  /** A setting that logs statements (one unset logs nothing), undone by that 0 or by turning it off. */
  const logged = (cause: Setting | undefined, says: string, orFix: string) => {
    if (cause) risks.push({ cause, says: `${says}, with its parameters`, fix: `${noParameters}, or ${orFix}` });
  };

  // 'mod' covers the owner's DELETE and INSERT, not PostgREST's insert (a SELECT over a
  // data-modifying WITH: cli/tests/logging-settings.test.ts shows both).
  const statement = get('log_statement');
  const writes = statement?.value === 'mod' ? ' that writes' : '';
  if (statement?.value === 'all' || (writes && session.owner)) {
    logged(statement, `logs every statement${writes}`, "set it to 'ddl' or 'none'");
  }
  const slow = get('log_min_duration_statement');
  if (!off(slow)) logged(slow, 'logs each statement slower than that', 'set it to -1');
  const sampled = get('log_min_duration_sample');
  if (!off(sampled) && !zero(get('log_statement_sample_rate'))) {
    logged(sampled, 'logs a sample of the statements slower than that', 'set it to -1');
  }
  const transactions = get('log_transaction_sample_rate');
  if (!zero(transactions)) logged(transactions, 'logs every statement of a sample of transactions', 'set it to 0');
  return risks;
}

/** The settings that would log an address in `session`, each with what it logs and its fix. */
function risksOf(session: Session): Risk[] {
  const get = (name: string) => session.settings.get(name);
  const risks = statementRisks(session);
  /** A setting that logs an address itself (one unset logs nothing), undone where it is set. */
  const direct = (cause: Setting | undefined, says: string, assignment: string) => {
    if (cause) risks.push({ cause, says, fix: setFor(session, cause.origin, assignment) });
  };

  const onError = get('log_parameter_max_length_on_error');
  if (!zero(onError)) {
    direct(
      onError,
      "logs a refused statement's parameters (a duplicate signup, a malformed address)",
      'log_parameter_max_length_on_error = 0',
    );
  }

  // The plan tree's constants (:constvalue) hold each parameter's bytes: log_parameter_max_length does
  // not apply. debug_print_parse and debug_print_rewritten show a parameter as a Param, not its value.
  const plans = get('debug_print_plan');
  if (truthy(plans)) {
    direct(
      plans,
      "logs each statement's plan, whose constants hold its parameters' bytes (log_parameter_max_length aside)",
      'debug_print_plan = off',
    );
  }

  const explain = get('auto_explain.log_min_duration');
  if (session.loaded('auto_explain') && !off(explain)) {
    direct(
      explain,
      "logs the plans of statements slower than that, and a plan shows a parameter's value " +
        '(PostgreSQL 16 and later also list the parameters)',
      'auto_explain.log_min_duration = -1',
    );
  }

  const auditParameters = get('pgaudit.log_parameter');
  const audited = audits(get('pgaudit.log')) || get('pgaudit.role')?.value;
  if (session.loaded('pgaudit') && audited && truthy(auditParameters)) {
    direct(auditParameters, "logs audited statements' parameters", 'pgaudit.log_parameter = off');
  }
  return risks;
}

/** How the owner knows a session: the Data API's request role, or the login role of the owner's commands. */
const who = (session: Session) =>
  session.requestRole ? `the Data API as ${session.requestRole}` : `sessions of ${session.login}`;

/** Each setting that would log an address, in words, with its fix; none when the log stays clean. */
export async function loggingRisks(db: pg.Client | pg.PoolClient) {
  const found = new Map<string, { risk: Risk; sessions: Session[] }>();
  const all = await loggingSessions(db);
  const apiSessions = all.filter((session) => session.requestRole).length;
  for (const session of all) {
    for (const risk of risksOf(session)) {
      const key = `${shown(risk.cause)}|${risk.fix}`;
      found.set(key, { risk, sessions: [...(found.get(key)?.sessions ?? []), session] });
    }
  }
  return [...found.values()].map(({ risk, sessions }) => {
    const api = sessions.filter((session) => session.requestRole);
    const owners = sessions.filter((session) => !session.requestRole).map(who);
    const them = [...(api.length === apiSessions ? ['the Data API'] : api.map(who)), ...owners].join(', ');
    return `${them[0].toUpperCase()}${them.slice(1)}: ${shown(risk.cause)} ${risk.says}. Fix: ${risk.fix}.`;
  });
}

const RUN_AS_POSTGRES =
  'Run each statement named as postgres (on Supabase, supautils lets it set these for itself and the API ' +
  "roles, except pgaudit.log_parameter: ask support); a setting in the server's configuration: Dashboard → " +
  'Project Settings → Database → configuration, or support; elsewhere ALTER SYSTEM as a superuser, then ' +
  "select pg_reload_conf(). ALTER ROLE ALL needs a superuser (on Supabase: support). A role's new settings " +
  'apply from its next login.';

export async function checkLogging(db: pg.Client): Promise<Finding> {
  const risks = await loggingRisks(db);
  if (!risks.length) return ok('logs', 'No logging setting writes an address to the server log.');
  return problem('logs', `The server log receives addresses: ${risks.join(' ')}`, RUN_AS_POSTGRES);
}

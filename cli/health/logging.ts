/**
 * Whether the server's log would receive a signup's address. PostgREST sends each signup's body
 * as a query parameter: a setting that logs statements with their parameters, or refused
 * statements with theirs, writes the address to the log (supabase/security.md, "What each copy
 * opens"). The log_* settings are superuser-only in PostgreSQL: the fix is the server's.
 */
import type pg from 'pg';
import { ok, problem, type Finding } from './finding.ts';

const NAMES = [
  'log_statement',
  'log_min_duration_statement',
  'log_parameter_max_length',
  'log_parameter_max_length_on_error',
  'shared_preload_libraries',
  'session_preload_libraries',
  'auto_explain.log_min_duration',
  'auto_explain.log_parameter_max_length',
  'pgaudit.log',
  'pgaudit.log_parameter',
];

/** Each setting that would log an address, in words, with its fix; none when the log stays clean. */
export async function loggingRisks(db: pg.Client | pg.PoolClient): Promise<string[]> {
  const { rows } = await db.query<{ name: string; setting: string }>(
    'select name, setting from pg_settings where name = any ($1)',
    [NAMES],
  );
  const get = (name: string) => rows.find((row) => row.name === name)?.setting;
  const withParameters = get('log_parameter_max_length') !== '0';
  const preloaded = `${get('shared_preload_libraries') ?? ''},${get('session_preload_libraries') ?? ''}`;
  const risks: string[] = [];
  const statement = get('log_statement');
  if ((statement === 'all' || statement === 'mod') && withParameters) {
    risks.push(`log_statement = '${statement}' logs every signup with its parameters: set it to 'ddl' or 'none'.`);
  }
  const slow = Number(get('log_min_duration_statement') ?? -1);
  if (slow >= 0 && withParameters) {
    risks.push(
      `log_min_duration_statement = ${slow} ms logs a signup slower than that with its parameters: set it to -1, ` +
        'or log_parameter_max_length to 0.',
    );
  }
  if (get('log_parameter_max_length_on_error') !== undefined && get('log_parameter_max_length_on_error') !== '0') {
    risks.push(
      `log_parameter_max_length_on_error = ${get('log_parameter_max_length_on_error')} logs a refused signup's ` +
        'parameters (a duplicate, a malformed address): set it to 0.',
    );
  }
  const explained = /\bauto_explain\b/.test(preloaded) && Number(get('auto_explain.log_min_duration') ?? -1) >= 0;
  const explainParameters = get('auto_explain.log_parameter_max_length');
  if (explained && explainParameters !== undefined && explainParameters !== '0') {
    risks.push(
      `auto_explain (auto_explain.log_min_duration = ${get('auto_explain.log_min_duration')} ms) logs plans with ` +
        'their parameters: set auto_explain.log_parameter_max_length to 0, or auto_explain.log_min_duration to -1.',
    );
  }
  const audit = get('pgaudit.log');
  if (audit !== undefined && audit !== 'none' && get('pgaudit.log_parameter') === 'on') {
    risks.push(`pgaudit.log_parameter = on (pgaudit.log = '${audit}') logs statements' parameters: set it to off.`);
  }
  return risks;
}

export async function checkLogging(db: pg.Client): Promise<Finding> {
  const risks = await loggingRisks(db);
  if (!risks.length) return ok('logs', 'No logging setting writes a signup’s address to the server log.');
  return problem(
    'logs',
    `The server log receives signups' addresses: ${risks.join(' ')}`,
    'On Supabase: Dashboard → Project Settings → Database → configuration, or ask support (these settings are ' +
      'superuser-only); elsewhere ALTER SYSTEM as a superuser, then select pg_reload_conf().',
  );
}

/**
 * The logging settings of each session that sends addresses, and where each value comes from: the
 * Data API logs in as `authenticator` (the server's value, ALTER ROLE ALL's, the database's, the role's,
 * the role's in this database) and applies each request role's settings of context `user` or that it
 * may SET (PostgREST's queryRoleSettings); the owner's commands log in as `postgres` or DATABASE_URL's
 * role where it may run private.address_hash. A server value the session's own setting hides is
 * taken as PostgreSQL's default.
 */
import type pg from 'pg';

const PRELOADS = ['shared_preload_libraries', 'session_preload_libraries', 'local_preload_libraries'];
const LOGGING_SETTINGS = [
  ...PRELOADS,
  ...'log_statement log_min_duration_statement log_min_duration_sample log_statement_sample_rate'.split(' '),
  ...'log_transaction_sample_rate log_parameter_max_length log_parameter_max_length_on_error'.split(' '),
  ...'debug_print_plan auto_explain.log_min_duration pgaudit.log pgaudit.role pgaudit.log_parameter'.split(' '),
];

const API_ROLES = ['anon', 'authenticated', 'service_role'];
const API_LOGIN = 'authenticator';

export type Origin =
  | { layer: 'server' }
  | { layer: 'all roles' }
  | { layer: 'database'; database: string }
  | { layer: 'role'; role: string }
  | { layer: 'role in database'; role: string; database: string }
  | { layer: 'request'; role: string };

export type Setting = { name: string; value: string; origin: Origin };

/**
 * One kind of session: its login role, the Data API's request role, the settings it runs with;
 * owner: the owner's commands, which also write by address (what log_statement = 'mod' logs);
 * loaded: whether a library is, preloaded anywhere or visible in pg_settings here.
 */
export type Session = { login: string; requestRole?: string; owner: boolean; settings: Map<string, Setting> } & {
  loaded: (library: string) => boolean;
};

type ServerRow = Record<'name' | 'setting' | 'boot_val' | 'context' | 'source', string> & { api_may_set: boolean };
type RoleRow = { role: string | null; database: string | null; config: string[] };

/** Sources that mean the value came from a database or role setting (read below) or this session. */
const NOT_THE_SERVERS = new Set(['global', 'database', 'user', 'database user', 'client', 'session', 'interactive']);

/** `name=value` as pg_db_role_setting stores it (the value unquoted). */
const parseConfig = (entry: string) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];

export async function loggingSessions(db: pg.Client | pg.PoolClient): Promise<Session[]> {
  const server = await db.query<ServerRow>(
    `select name, setting, boot_val, context, source,
            exists (select from pg_roles where rolname = $2)
              and has_parameter_privilege($2, name, 'SET') as api_may_set
     from pg_settings where name = any ($1)`,
    [LOGGING_SETTINGS, API_LOGIN],
  );
  const { rows: here } = await db.query<{ database: string; user: string; sends: boolean }>(
    `select current_database() as database, current_user as user,
            exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                    where n.nspname = 'private' and p.proname = 'address_hash'
                      and has_schema_privilege(n.oid, 'USAGE') and has_function_privilege(p.oid, 'EXECUTE')) as sends`,
  );
  const { database, user, sends } = here[0];
  const logins = [...new Set([API_LOGIN, 'postgres', ...(sends ? [user] : [])])];
  const roles = await db.query<RoleRow>(
    `select r.rolname as role, d.datname as database, s.setconfig as config
     from pg_db_role_setting s
     left join pg_roles r on r.oid = s.setrole
     left join pg_database d on d.oid = s.setdatabase
     where (s.setdatabase = 0 or d.datname = current_database())
       and (s.setrole = 0 or r.rolname = any ($1))`,
    [[...logins, ...API_ROLES]],
  );

  const serverLayer = new Map<string, Setting>();
  for (const row of server.rows) {
    const value = NOT_THE_SERVERS.has(row.source) ? row.boot_val : row.setting;
    serverLayer.set(row.name, { name: row.name, value, origin: { layer: 'server' } });
  }
  /** One row of pg_db_role_setting: ALTER ROLE ALL SET (no role, no database), the database's, a role's. */
  const layer = (role: string | null, inDatabase: boolean): Setting[] => {
    let origin: Origin;
    if (role === null) {
      origin = inDatabase ? { layer: 'database', database } : { layer: 'all roles' };
    } else {
      origin = inDatabase ? { layer: 'role in database', role, database } : { layer: 'role', role };
    }
    return roles.rows
      .filter((row) => row.role === role && (row.database !== null) === inDatabase)
      .flatMap((row) => row.config.map(parseConfig).map(([name, value]) => ({ name, value, origin })));
  };
  /** What PostgREST applies of a request role's settings (its role-wide ones only: pg_roles.rolconfig). */
  const perRequest = (role: string): Setting[] =>
    layer(role, false)
      .filter(({ name }) => server.rows.some((row) => row.name === name && (row.context === 'user' || row.api_may_set)))
      .map((setting) => ({ ...setting, origin: { layer: 'request', role } }));
  const visibleHere = (library: string) => server.rows.some((row) => row.name.startsWith(`${library}.`));

  const session = (login: string, owner: boolean, requestRole?: string): Session => {
    const settings = new Map<string, Setting>();
    const layers = [
      [...serverLayer.values()],
      layer(null, false),
      layer(null, true),
      layer(login, false),
      layer(login, true),
      requestRole ? perRequest(requestRole) : [],
    ];
    for (const setting of layers.flat()) settings.set(setting.name, setting);
    /** A library named in a preload list ("$libdir/plugins/auto_explain" too), or whose settings this session sees. */
    const named = (name: string) => (settings.get(name)?.value ?? '').split(',').map((entry) => entry.trim());
    const loaded = (library: string) =>
      visibleHere(library) ||
      PRELOADS.some((name) =>
        named(name).some((entry) => entry.replace(/^"|"$/g, '').replace(/^\$libdir\/(plugins\/)?/, '') === library),
      );
    return { login, requestRole, owner, settings, loaded };
  };
  return [
    ...API_ROLES.map((role) => session(API_LOGIN, false, role)),
    ...logins.filter((login) => login !== API_LOGIN).map((login) => session(login, true)),
  ];
}

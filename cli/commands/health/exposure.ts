/**
 * Whether the public key reads nothing, from the live catalog: every table, view, sequence, function
 * and policy of our schemas the API roles may use, and their own attributes. Anything beyond the
 * page's one insert is named, with the statement that stops it.
 */
import type pg from 'pg';
import { ok, problem, type Finding } from '../../findings/finding.ts';

const CHECK = 'exposure';

/** The schemas the Data API serves (supabase/config.toml [api] schemas, plus Supabase's own). */
export const EXPOSED_SCHEMAS = ['public', 'graphql_public'];

/** Schemas of PostgreSQL, Supabase and extensions: not ours to lint. */
const SYSTEM_SCHEMAS = [
  ...['pg_catalog', 'information_schema', 'pg_toast', 'cron', 'auth', 'storage', 'extensions', 'graphql'],
  ...['graphql_public', 'realtime', '_realtime', '_analytics', 'vault', 'pgsodium', 'pgsodium_masks', 'net'],
  ...['pgbouncer', 'pgtle', 'pgroonga', 'repack', 'tiger', 'topology', 'supabase_functions', 'supabase_migrations'],
  ...['_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_config', '_timescaledb_internal'],
];
/** Supabase's own schemas (splinter leaves out the same), PostgreSQL's, and each session's temporary ones. */
export const SYSTEM = `n.nspname not in (${SYSTEM_SCHEMAS.map((name) => `'${name}'`).join(', ')})
  and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

/** What the page needs, and nothing more: anon and authenticated may add an address. */
const ALLOWED_COLUMNS = { object: 'public.waiting_list', columns: ['email'] };
/** The policy that stamps a signup with the current time, as the migration creates it. */
const ALLOWED_POLICY = {
  object: 'public.waiting_list',
  name: 'waiting_list_fresh_signup',
  check: '(created_at = now())',
};
/** The migration that creates the list and that policy. */
const MIGRATION = 'supabase/migrations/*_waiting_list.sql';
/** Supabase's GraphQL entry point, and the address rule the list's check runs as the inserting role. */
const ALLOWED_FUNCTIONS = ['graphql_public.graphql', 'private.email_format_ok(text)'];

/** Our schemas: every schema but PostgreSQL's and Supabase's own, and the exposed ones whatever they are. */
const OURS = `(${SYSTEM} or n.nspname = any($1::text[]))`;
const API_ROLES = `(select rolname::text as role from pg_catalog.pg_roles where rolname in ('anon', 'authenticated'))`;

const KIND: Record<string, string> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', f: 'foreign table' };

type Grant = { object: string; kind: string; role: string; privilege: string; columns: string[] | null };

async function relationGrants(db: pg.Client): Promise<Grant[]> {
  const { rows } = await db.query<Grant>(
    `select n.nspname || '.' || c.relname as object, c.relkind::text as kind, r.role, p.privilege,
            case when has_table_privilege(r.role, c.oid, p.privilege) then null
                 else array(select a.attname::text from pg_catalog.pg_attribute a
                            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                              and has_column_privilege(r.role, c.oid, a.attnum, p.privilege)
                            order by a.attnum) end as columns
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     cross join ${API_ROLES} r
     cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p(privilege)
     where c.relkind in ('r', 'p', 'v', 'm', 'f') and ${OURS}
       and (has_table_privilege(r.role, c.oid, p.privilege)
            or (p.privilege in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
                and has_any_column_privilege(r.role, c.oid, p.privilege)))
     union all
     select n.nspname || '.' || c.relname, 'S', r.role, p.privilege, null
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     cross join ${API_ROLES} r
     cross join unnest(array['USAGE', 'SELECT', 'UPDATE']) p(privilege)
     where c.relkind = 'S' and ${OURS} and has_sequence_privilege(r.role, c.oid, p.privilege)
     order by 1, 3, 4`,
    [EXPOSED_SCHEMAS],
  );
  const allowed = ({ object, privilege, columns }: Grant) =>
    `${object} ${privilege} ${columns}` === `${ALLOWED_COLUMNS.object} INSERT ${ALLOWED_COLUMNS.columns}`;
  return rows.filter((grant) => !allowed(grant));
}

/** The statement that takes back what the API roles may do with `object` (for the list: all but its one insert). */
function revokeStatement(object: string, kind: string, privileges: string) {
  if (kind === 'sequence') return `revoke all on sequence ${object} from public, anon, authenticated;`;
  if (object === ALLOWED_COLUMNS.object) {
    return (
      `revoke all on table ${object} from public, anon, authenticated; ` +
      `grant insert (email) on table ${object} to anon, authenticated;`
    );
  }
  const onWhat = kind === 'view' || kind === 'materialized view' ? object : `table ${object}`;
  return `revoke ${privileges} on ${onWhat} from public, anon, authenticated;`;
}

/** One finding per object, naming what each role may do with it and the statement that stops it. */
function grantFindings(grants: Grant[]): Finding[] {
  const byObject = new Map<string, Grant[]>();
  for (const grant of grants) byObject.set(grant.object, [...(byObject.get(grant.object) ?? []), grant]);
  return [...byObject].map(([object, list]) => {
    const kind = KIND[list[0].kind] ?? (list[0].kind === 'S' ? 'sequence' : 'relation');
    const roles = [...new Set(list.map((g) => g.role))];
    const what = [...new Set(list.map((g) => (g.columns ? `${g.privilege} (${g.columns.join(', ')})` : g.privilege)))];
    const privileges = [...new Set(list.map((g) => g.privilege))].join(', ');
    const reads = list.some((g) => g.privilege === 'SELECT');
    const revoke = revokeStatement(object, kind, privileges);
    return problem(
      CHECK,
      `${object} (${kind}): ${roles.join(' and ')} may ${what.join(', ')}` +
        `${reads ? ', so the public key reads it through the data API' : ''}. ` +
        'The public key may add an address to public.waiting_list and nothing else.',
      `${revoke} (or drop the ${kind} if nothing needs it)`,
    );
  });
}

async function functionFindings(db: pg.Client): Promise<Finding[]> {
  const { rows } = await db.query<{ name: string; signature: string; roles: string[]; definer: boolean }>(
    `select n.nspname || '.' || p.proname as name,
            n.nspname || '.' || p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')' as signature,
            array_agg(r.role order by r.role) as roles, p.prosecdef as definer
     from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     cross join ${API_ROLES} r
     where ${OURS} and has_function_privilege(r.role, p.oid, 'EXECUTE')
       and (n.nspname = any($1::text[])
            or not exists (select from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e'))
     group by 1, 2, 4 order by 2`,
    [EXPOSED_SCHEMAS],
  );
  return rows
    .filter((f) => !ALLOWED_FUNCTIONS.includes(f.name) && !ALLOWED_FUNCTIONS.includes(f.signature))
    .map((f) => {
      const [schema, name] = f.name.split('.');
      const rpc = EXPOSED_SCHEMAS.includes(schema) ? `, through the data API (/rest/v1/rpc/${name})` : '';
      return problem(
        CHECK,
        `${f.signature} (function${f.definer ? ', security definer' : ''}): ` +
          `${f.roles.join(' and ')} may call it${rpc}. ` +
          'The public key may add an address to public.waiting_list and nothing else.',
        `revoke execute on function ${f.signature} from public, anon, authenticated; (or drop the function)`,
      );
    });
}

async function policyFindings(db: pg.Client): Promise<Finding[]> {
  type Policy = { object: string; name: string; cmd: string; roles: string[]; qual: string | null; with_check: string };
  const { rows } = await db.query<Policy>(
    `select schemaname || '.' || tablename as object, policyname as name, cmd, roles::text[] as roles, qual, with_check
     from pg_catalog.pg_policies p join pg_catalog.pg_namespace n on n.nspname = p.schemaname
     where ${OURS} order by 1, 2`,
    [EXPOSED_SCHEMAS],
  );
  const { object, name, check } = ALLOWED_POLICY;
  const allowed = (p: Policy) =>
    `${p.object} ${p.name} ${p.cmd} ${[...p.roles].sort()} ${p.qual} ${p.with_check}` ===
    `${object} ${name} INSERT anon,authenticated null ${check}`;
  const findings = rows
    .filter((p) => !allowed(p))
    .map((p) =>
      problem(
        CHECK,
        `Policy ${p.name} on ${p.object}: for ${p.cmd.toLowerCase()} to ${p.roles.join(', ')}` +
          `${p.qual ? ` using ${p.qual}` : ''}${p.with_check ? ` with check ${p.with_check}` : ''}. ` +
          `The list's one policy is ${name} (for insert to anon, authenticated with check ${check}); ` +
          'any other opens rows to whoever a grant lets in.',
        p.object === object && p.name === name
          ? `drop policy ${p.name} on ${p.object}; then recreate it as ${MIGRATION} creates it.`
          : `drop policy "${p.name}" on ${p.object};`,
      ),
    );
  if (!rows.some(allowed)) {
    findings.push(
      problem(
        CHECK,
        `Policy ${name} on ${object} is missing or changed: ` +
          'nothing states that a signup is stamped with the current time.',
        `Recreate it as ${MIGRATION} creates it.`,
      ),
    );
  }
  return findings;
}

/** Schemas other than the exposed ones that the API roles may use, and the roles' own powers. */
async function roleFindings(db: pg.Client): Promise<Finding[]> {
  const { rows: schemas } = await db.query<{ schema: string; role: string; privilege: string }>(
    `select n.nspname as schema, r.role, p.privilege
     from pg_catalog.pg_namespace n cross join ${API_ROLES} r cross join unnest(array['USAGE', 'CREATE']) p(privilege)
     where ${OURS} and has_schema_privilege(r.role, n.oid, p.privilege)
       and not (p.privilege = 'USAGE' and n.nspname = any($1::text[]))
     order by 1, 2, 3`,
    [EXPOSED_SCHEMAS],
  );
  const { rows: roles } = await db.query<{ role: string; power: string }>(
    `select r.rolname as role, p.power from pg_catalog.pg_roles r
     cross join lateral (values (r.rolsuper, 'is a superuser'),
                                (r.rolbypassrls, 'bypasses row-level security')) p(has, power)
     where r.rolname in ('anon', 'authenticated') and p.has
     union all
     select m.rolname, 'is a member of ' || g.rolname from pg_catalog.pg_auth_members a
     join pg_catalog.pg_roles m on m.oid = a.member join pg_catalog.pg_roles g on g.oid = a.roleid
     where m.rolname in ('anon', 'authenticated')
     order by 1, 2`,
  );
  return [
    ...schemas.map((s) =>
      problem(
        CHECK,
        `Schema ${s.schema}: ${s.role} has ${s.privilege}.`,
        `revoke ${s.privilege.toLowerCase()} on schema ${s.schema} from public, anon, authenticated;`,
      ),
    ),
    ...roles.map((r) => {
      const member = /^is a member of (.+)$/.exec(r.power)?.[1];
      return problem(
        CHECK,
        `Role ${r.role} ${r.power}: every request with the public key ` +
          `${member ? `has ${member}'s privileges` : 'reads past row-level security'}.`,
        member
          ? `revoke ${member} from ${r.role};`
          : `alter role ${r.role} ${r.power === 'is a superuser' ? 'nosuperuser' : 'nobypassrls'};`,
      );
    }),
  ];
}

export async function checkExposure(db: pg.Client): Promise<Finding[]> {
  const findings = [
    ...grantFindings(await relationGrants(db)),
    ...(await functionFindings(db)),
    ...(await policyFindings(db)),
    ...(await roleFindings(db)),
  ];
  const { rows } = await db.query<{ schemas: string[] }>(
    `select array_agg(n.nspname::text order by n.nspname) as schemas from pg_catalog.pg_namespace n where ${OURS}`,
    [EXPOSED_SCHEMAS],
  );
  const clean = ok(
    CHECK,
    `The public key may add an address to public.waiting_list and nothing else: every table, view, sequence, ` +
      `function and policy of ${rows[0].schemas.join(', ')} checked for anon and authenticated.`,
  );
  return findings.length ? findings : [clean];
}

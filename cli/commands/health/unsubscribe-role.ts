/** The unsubscribe function's login role: there, holding nothing but EXECUTE on private.unsubscribe(bytea). */
import type pg from 'pg';
import { ok, problem, type Finding } from '../../findings/finding.ts';

const ROLE = 'waitlist_unsubscribe';
const ALLOWED = 'private.unsubscribe(bytea)';

type RoleRow = { login: boolean; powers: string[]; member_of: string[]; functions: string[]; relations: string[] };

export async function checkUnsubscribeRole(db: pg.Client): Promise<Finding> {
  const { rows } = await db.query<RoleRow>(
    `select r.rolcanlogin as login,
            array_remove(array[case when r.rolsuper then 'superuser' end,
                               case when r.rolbypassrls then 'bypassrls' end,
                               case when r.rolcreaterole then 'createrole' end,
                               case when r.rolcreatedb then 'createdb' end,
                               case when r.rolreplication then 'replication' end], null) as powers,
            array(select g.rolname::text from pg_auth_members m join pg_roles g on g.oid = m.roleid
                  where m.member = r.oid order by 1) as member_of,
            array(select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                  where n.nspname = 'private' and has_function_privilege(r.oid, p.oid, 'execute')
                  order by 1) as functions,
            array(select c.oid::regclass::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
                  where n.nspname in ('public', 'private') and c.relkind in ('r', 'v', 'm', 'p', 'f', 'S')
                    and (has_table_privilege(r.oid, c.oid,
                                             'select, insert, update, delete, truncate, references, trigger')
                         or has_any_column_privilege(r.oid, c.oid, 'select, insert, update, references'))
                  order by 1) as relations
     from pg_roles r where r.rolname = $1`,
    [ROLE],
  );
  const fix =
    'Restore it as supabase/migrations/20261128100300_owner.sql grants it (supabase/README.md, ' +
    '"One-click unsubscribe").';
  const role = rows[0];
  if (!role) return problem('unsubscribe role', `The role ${ROLE} is missing: one-click unsubscribes fail.`, fix);
  const extra = [
    ...(role.login ? [] : ['cannot log in']),
    ...role.powers.map((power) => `has ${power}`),
    ...role.member_of.map((group) => `is a member of ${group}`),
    ...role.functions.filter((f) => f !== ALLOWED).map((f) => `may execute ${f}`),
    ...role.relations.map((relation) => `holds privileges on ${relation}`),
    ...(role.functions.includes(ALLOWED) ? [] : [`may not execute ${ALLOWED}`]),
  ];
  if (extra.length) return problem('unsubscribe role', `${ROLE} ${extra.join('; ')}.`, fix);
  return ok('unsubscribe role', `${ROLE} may execute ${ALLOWED} and nothing else of the list.`);
}

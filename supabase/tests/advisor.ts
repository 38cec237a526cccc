/**
 * The security lints of Supabase's Security Advisor (supabase/splinter), restated: each query lists
 * what it flags (none: a clean advisor page), stricter where that costs nothing (a table in an
 * exposed schema needs row-level security whatever its grants). Run on the migrated schema by
 * advisor.test.ts; on the live database, health's exposure check names what the API roles may do.
 */
import { SYSTEM } from '../../cli/commands/health/exposure';

export { EXPOSED_SCHEMAS } from '../../cli/commands/health/exposure';

const EXPOSED = `n.nspname = any($1::text[])`;
const NOT_FROM_EXTENSION = `not exists (select from pg_catalog.pg_depend d where d.objid = c.oid and d.deptype = 'e')`;

export const lints: Record<string, string> = {
  // 0011: a function whose search_path the caller's settings can change.
  function_search_path_mutable: `
    select n.nspname || '.' || p.proname as object
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where ${SYSTEM} and $1::text[] is not null
      and not exists (select from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
      and not exists (select from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
  // 0014
  extension_in_public: `
    select e.extname as object from pg_catalog.pg_extension e
    where e.extnamespace = 'public'::regnamespace and e.extname <> 'plpgsql' and $1::text[] is not null`,
  // 0013 (and 0007, a policy on a table without RLS): every table in an exposed schema.
  rls_disabled_in_public: `
    select n.nspname || '.' || c.relname as object
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and not c.relrowsecurity and ${EXPOSED} and ${NOT_FROM_EXTENSION}`,
  // 0010: a view in an exposed schema runs with its owner's rights unless security_invoker.
  security_definer_view: `
    select n.nspname || '.' || c.relname as object
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'v' and ${EXPOSED} and ${NOT_FROM_EXTENSION}
      and not coalesce(c.reloptions, '{}')
        && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1']`,
  // 0016: a materialized view has no RLS at all.
  materialized_view_in_api: `
    select n.nspname || '.' || c.relname as object
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'm' and ${EXPOSED}`,
  // 0024: a policy for the public roles that admits every row.
  rls_policy_always_true: `
    select schemaname || '.' || tablename || ' ' || policyname as object from pg_catalog.pg_policies
    where schemaname = any($1::text[]) and cmd <> 'SELECT'
      and (roles && array['public', 'anon', 'authenticated']::name[])
      and (lower(coalesce(qual, '')) = 'true' or lower(coalesce(with_check, '')) = 'true')`,
  // 0028/0029, in any schema of ours: the API roles may run no function with its owner's rights.
  security_definer_function_executable: `
    select n.nspname || '.' || p.proname as object
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where ${SYSTEM} and $1::text[] is not null and p.prosecdef
      and (pg_catalog.has_function_privilege('anon', p.oid, 'EXECUTE')
        or pg_catalog.has_function_privilege('authenticated', p.oid, 'EXECUTE'))`,
};

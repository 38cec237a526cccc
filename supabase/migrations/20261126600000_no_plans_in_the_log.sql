-- Keeps plans, and so the addresses they carry, out of the server log for the roles that send
-- addresses (`authenticator`, the Data API's login role; `postgres`, the owner's): with
-- debug_print_plan on, each statement's plan is logged, and its constants hold the bytes of each
-- parameter the planner folded in (a signup's body, an address given to erase), whatever
-- log_parameter_max_length says. debug_print_parse and debug_print_rewritten show a parameter as
-- $1, not its value (cli/tests/logging-settings.test.ts). As in
-- 20261126400000_keep_parameters_out_of_the_log.sql: a role's setting wins over the server's and
-- the database's from its next login; a project whose image does not let `postgres` set it keeps
-- its old value (a NOTICE says which), and `waitlist health` names it if it logs plans. A request
-- role's own setting (ALTER ROLE anon SET) is applied by PostgREST over this: `health` names it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

do $$
declare
  role_name text;
begin
  foreach role_name in array array['authenticator', 'postgres'] loop
    begin
      execute format('alter role %I set debug_print_plan = off', role_name);
    exception when insufficient_privilege then
      raise notice 'Not set for role %: debug_print_plan = off (%)', role_name, sqlerrm;
    end;
  end loop;
end
$$;

reset lock_timeout;
reset statement_timeout;

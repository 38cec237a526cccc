-- Keeps addresses out of the server log for the roles that send them: `authenticator`, the Data
-- API's login role (a signup's body is the parameter of PostgREST's insert), and `postgres`, the
-- owner's (erase and suppress pass addresses as parameters). A role's settings apply from its next
-- login on, over the server's and the database's, so a logging threshold turned on later
-- (log_min_duration_statement, log_statement) logs these roles' statements without their values
-- (supabase/security.md, "Logs"):
-- * log_parameter_max_length and log_parameter_max_length_on_error 0: no parameter's value;
-- * auto_explain.log_min_duration -1: no plan from auto_explain, whose plans show a parameter;
-- * debug_print_plan off: its plans hold the bytes of each parameter the planner folded in,
--   whatever log_parameter_max_length says (debug_print_parse and debug_print_rewritten show $1).
-- On Supabase, supautils lets `postgres` set these for itself and for `authenticator`; a project
-- whose image does not allow one keeps its old value (a NOTICE says which), and `waitlist health`
-- names any setting that then logs an address. A request role's own setting (ALTER ROLE anon SET)
-- is applied by PostgREST over these: `health` names it too.

set lock_timeout = '5s';
set statement_timeout = '60s';

do $$
declare
  role_name text;
  setting text;
begin
  foreach role_name in array array['authenticator', 'postgres'] loop
    foreach setting in array array[
      'log_parameter_max_length = 0',
      'log_parameter_max_length_on_error = 0',
      'auto_explain.log_min_duration = -1',
      'debug_print_plan = off'
    ] loop
      begin
        execute format('alter role %I set %s', role_name, setting);
      exception when insufficient_privilege then
        raise notice 'Not set for role %: % (%)', role_name, setting, sqlerrm;
      end;
    end loop;
  end loop;
end
$$;

reset lock_timeout;
reset statement_timeout;

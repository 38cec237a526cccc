-- Keeps query parameters, and so the addresses they carry, out of the server log for the roles
-- that send them: `authenticator`, the Data API's login role (a signup's body is the parameter of
-- PostgREST's insert), and `postgres`, the owner's (erase and suppress pass addresses as
-- parameters). A role's settings apply from its next login on, over the server's and the
-- database's, so a logging threshold turned on later (log_min_duration_statement, log_statement)
-- logs these roles' statements without their values. auto_explain is kept off for them too: its
-- plans show a parameter's value (supabase/security.md, "Logs").
-- On Supabase, supautils lets `postgres` set these for itself and for `authenticator`; a project
-- whose image does not allow one yet keeps its old value (a NOTICE says which), and
-- `waitlist health` names any setting that then logs an address.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
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
      'auto_explain.log_min_duration = -1'
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

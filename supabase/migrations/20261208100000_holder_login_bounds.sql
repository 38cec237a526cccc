-- Key holders' logins (waitlist_holder_<id>, made by `keys add`) are bounded as the unsubscribe
-- function's login is: few connections, and no statement, open transaction or idle session that
-- lasts. A holder's session then cannot hold for long what `keys remove` must end (a temporary
-- table, a lock). `keys add` bounds each new login with this function; below, those made before.

set lock_timeout = '5s';
set statement_timeout = '60s';

create or replace function private.bound_holder_login(login name) returns void
  language plpgsql
  volatile
  set search_path = ''
  as $$
begin
  if login !~ '^waitlist_holder_[0-9]+$' then
    raise exception 'not a key holder''s login: %', login using errcode = 'invalid_parameter_value';
  end if;
  execute format('alter role %I connection limit 2', login);
  execute format('alter role %I set statement_timeout = %L', login, '60s');
  execute format('alter role %I set idle_in_transaction_session_timeout = %L', login, '60s');
  execute format('alter role %I set idle_session_timeout = %L', login, '10min');
end;
$$;
revoke all on function private.bound_holder_login(name) from public, anon, authenticated, service_role;
comment on function private.bound_holder_login(name) is
  'keys add: a holder''s login gets 2 connections, 60 s per statement or idle transaction, 10 min idle.';

select private.bound_holder_login(rolname) from pg_roles where rolname ~ '^waitlist_holder_[0-9]+$';

reset lock_timeout;
reset statement_timeout;

-- A second key holder proves their copy (`keys check`) with a login of their own, not the owner's
-- database password: `keys add` makes waitlist_holder_<holder id>, a member of waitlist_key_check,
-- which reads what the check reads (the public halves, the hour keys' ids, their wrapped copies, the
-- first seal of each hour key through private.first_seals()) and records a check through
-- private.record_key_check alone. It can change nothing of the list, and reads no clear hour key
-- (private.hour_key_0/1/2), no address hash and no other seal.

set lock_timeout = '5s';
set statement_timeout = '60s';

do $$
begin
  if not exists (select from pg_roles where rolname = 'waitlist_key_check') then
    create role waitlist_key_check nologin noinherit nosuperuser nocreatedb nocreaterole nobypassrls;
  end if;
end;
$$;
comment on role waitlist_key_check is
  'Key holders'' logins (waitlist_holder_<id>, made by keys add): what keys check reads, and its record.';

grant usage on schema private, extensions to waitlist_key_check;
grant select (id, public_key, fingerprint, checked_at) on private.key_holders to waitlist_key_check;
grant select (id) on private.hour_keys to waitlist_key_check;
grant select on private.wrapped_hour_keys to waitlist_key_check;

-- The seals the check opens: the first of each hour key, never the list (a holder's key and login
-- alone must not read every address without the owner).
create function private.first_seals() returns table (id bigint, hour_key_id bigint, seal bytea)
  language sql
  stable
  security definer
  set search_path = ''
  as $$
  select distinct on (a.hour_key_id) a.id, a.hour_key_id, a.seal from private.signup_addresses a
  where a.seal is not null order by a.hour_key_id, a.id
$$;
revoke all on function private.first_seals() from public, anon, authenticated, service_role;
grant execute on function private.first_seals() to waitlist_key_check;
comment on function private.first_seals() is 'keys check: the first seal of each hour key, and no other.';

-- The owner records any holder's check; a holder's login, its own holder's only.
create function private.record_key_check(holder bigint) returns boolean
  language sql
  security definer
  set search_path = ''
  as $$
  update private.key_holders set checked_at = now()
  where id = holder and (session_user::text not like 'waitlist\_holder\_%' or session_user::text = 'waitlist_holder_' || holder)
  returning true
$$;
revoke all on function private.record_key_check(bigint) from public, anon, authenticated, service_role;
grant execute on function private.record_key_check(bigint) to waitlist_key_check;
comment on function private.record_key_check(bigint) is
  'keys check: when the holder''s stored copy last opened the list; a holder''s login records its own only.';

reset lock_timeout;
reset statement_timeout;

-- One-click unsubscribe (RFC 8058): the Edge Function supabase/functions/unsubscribe checks the
-- link's token and calls private.unsubscribe(hash) as waitlist_unsubscribe, a login role that may
-- execute that one function and read or write nothing else. The function never sees an address:
-- the token carries the list's keyed hash (private.do_not_email's key).

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

-- Roles belong to the cluster, not the database: a second database of the same server has it already.
-- No password here: the owner sets one (supabase/README.md, "One-click unsubscribe"); until then
-- nobody can log in as it.
do $$
begin
  if not exists (select from pg_roles where rolname = 'waitlist_unsubscribe') then
    create role waitlist_unsubscribe login noinherit nosuperuser nocreatedb nocreaterole nobypassrls
      noreplication connection limit 20;
  end if;
end
$$;
comment on role waitlist_unsubscribe is
  'The unsubscribe Edge Function: may execute private.unsubscribe(bytea), nothing else of the list.';
alter role waitlist_unsubscribe set statement_timeout = '5s';

-- Puts the hash on the do-not-email list as 'unsubscribed'. Twice is once. An entry that already
-- stops every send (bounced, suppressed, unsubscribed) stays as it is; an 'erased' one becomes
-- 'unsubscribed', which also holds against a signup made after the erasure.
create function private.unsubscribe(hash bytea) returns void
  language sql volatile strict security definer
  set search_path = ''
  as $$
    insert into private.do_not_email (address_hash, reason) values (hash, 'unsubscribed')
    on conflict (address_hash) do update set reason = 'unsubscribed', added_at = now()
      where private.do_not_email.reason = 'erased'
  $$;
comment on function private.unsubscribe(bytea) is
  'One-click unsubscribe of a keyed address hash (supabase/functions/unsubscribe). Idempotent.';

revoke all on function private.unsubscribe(bytea) from public;
grant usage on schema private to waitlist_unsubscribe;
grant execute on function private.unsubscribe(bytea) to waitlist_unsubscribe;

reset lock_timeout;
reset statement_timeout;

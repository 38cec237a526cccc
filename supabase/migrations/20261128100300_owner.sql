-- The owner's side (cli/, `npm run waitlist`): the do-not-email list, the send journal and
-- one-click unsubscribe. None holds an address: each holds its address hash (private.address_hash,
-- kept for every signup in private.signup_addresses), so an erased person's address is gone from
-- the database while no later send or import can reach it.
-- May run again over the previous chain once cleaned up: see 20261128100000_waiting_list.sql.

set lock_timeout = '5s';
set statement_timeout = '60s';

create table if not exists private.do_not_email (
  address_hash bytea primary key,
  reason text not null check (reason in ('erased', 'unsubscribed', 'bounced', 'suppressed')),
  added_at timestamptz not null default now()
);
comment on table private.do_not_email is
  'Addresses never to export or email, as private.address_hash(). An ''erased'' entry yields to a '
  'signup made after it (a new consent); the others always apply.';

-- The signups that may be exported and emailed, with what opens each sealed one: `waitlist export`
-- and `notify` read this. The do-not-email list is small, so the excluded ids are one hashed set.
-- security_invoker: it never shows the list to a role that may not read the table.
create view private.mailable_signups with (security_invoker = true) as
  select w.id, a.hour_key_id, a.seal, w.email, w.created_at
  from public.waiting_list w
  left join private.signup_addresses a on a.id = w.id
  where w.id not in (
    select s.id
    from private.do_not_email d
    join private.signup_addresses s on s.address_hash = d.address_hash
    join public.waiting_list l on l.id = s.id
    where not (d.reason = 'erased' and l.created_at > d.added_at));
comment on view private.mailable_signups is
  'public.waiting_list without the do-not-email list (an erased address that signed up again is back), '
  'with each row''s seal and hour key: email is null once sealed. Matched by address hash: the owner''s commands '
  'hash rows restored with triggers off before they read it.';

-- One row per campaign and address: the primary key is what makes a message go at most once.
-- pending -> sending (committed before the SMTP server gets it) -> sent | failed | skipped.
-- A row left in 'sending' by a killed run is uncertain: the server may or may not have it.
create table if not exists private.notify_journal (
  campaign text not null,
  address_hash bytea not null,
  -- Where to read the address while the row waits; cleared when the signup is erased.
  signup_id bigint references public.waiting_list (id) on delete set null,
  state text not null default 'pending'
    check (state in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  attempts integer not null default 0,
  detail text,
  changed_at timestamptz not null default now(),
  primary key (campaign, address_hash)
);
-- The next pending row of a campaign, in signup order, without scanning the others.
create index if not exists notify_journal_waiting_idx on private.notify_journal (campaign, state, signup_id);
create index if not exists notify_journal_signup_idx on private.notify_journal (signup_id);
comment on table private.notify_journal is
  'Who was sent which campaign, by address hash. detail: a failure''s SMTP reply code and enhanced status (or error code), never the reply''s text.';

revoke all on table private.do_not_email, private.notify_journal, private.mailable_signups
  from public, anon, authenticated, service_role;

-- One-click unsubscribe (RFC 8058): the Edge Function supabase/functions/unsubscribe checks the
-- link's token and calls private.unsubscribe(hash) as waitlist_unsubscribe, a login role that may
-- execute that one function and read or write nothing else. Roles belong to the cluster, not the
-- database: a second database of the same server has it already. No password here: the owner sets
-- one (supabase/README.md, "One-click unsubscribe"); until then nobody can log in as it.
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

-- Puts a 32-byte address hash (what notify's links carry) on the do-not-email list as
-- 'unsubscribed'; any other length is refused (22023) and stores nothing. Twice is once. An entry
-- that already stops every send (bounced, suppressed, unsubscribed) stays as it is; an 'erased'
-- one becomes 'unsubscribed', which also holds against a signup made after the erasure.
create or replace function private.unsubscribe(hash bytea) returns void
  language plpgsql volatile strict security definer
  set search_path = ''
  as $$
begin
  if octet_length(hash) <> 32 then
    raise exception 'private.unsubscribe takes a 32-byte address hash, not % bytes', octet_length(hash)
      using errcode = 'invalid_parameter_value';
  end if;
  insert into private.do_not_email (address_hash, reason) values (hash, 'unsubscribed')
  on conflict (address_hash) do update set reason = 'unsubscribed', added_at = now()
    where private.do_not_email.reason = 'erased';
end;
$$;
comment on function private.unsubscribe(bytea) is
  'One-click unsubscribe of a 32-byte address hash (supabase/functions/unsubscribe); any other length is '
  'refused. Idempotent.';
revoke all on function private.unsubscribe(bytea) from public;
grant usage on schema private to waitlist_unsubscribe;
grant execute on function private.unsubscribe(bytea) to waitlist_unsubscribe;

-- Nothing in private is the API roles' (the triggers that need it run as its owner), and a function
-- added to it later is executable by no one until it is granted.
revoke all on all tables in schema private from anon, authenticated, service_role;
revoke all on all sequences in schema private from anon, authenticated, service_role;
alter default privileges in schema private revoke execute on functions from public;

reset lock_timeout;
reset statement_timeout;

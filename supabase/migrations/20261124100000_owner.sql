-- The owner's side (cli/, `npm run waitlist`): the do-not-email list and the send journal.
-- Neither holds an address: both hold a keyed hash of it (private.address_hash), so an erased
-- person's address is gone from the database while no later send or import can reach it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole.
set local lock_timeout = '5s';
set local statement_timeout = '60s';

-- The key of the hashes: 32 random bytes, made once by this migration, never leaving the
-- database (nothing reads it but private.address_hash). Losing it (a restore without this row)
-- makes every hash unmatchable: keep it in the backups with the list.
create table private.owner_secret (
  one_row boolean primary key default true check (one_row),
  secret bytea not null
);
comment on table private.owner_secret is
  'The key of private.address_hash(). One row, made by the migration; read by nothing else.';
insert into private.owner_secret (secret)
values (uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));

-- sha256(secret || key): without the secret, a hash cannot be tested against guessed addresses.
create function private.keyed_hash(secret bytea, address text) returns bytea
  language sql immutable parallel safe
  set search_path = ''
  as $$ select sha256(secret || convert_to(private.email_key(address), 'UTF8')) $$;

create function private.address_hash(address text) returns bytea
  language sql stable parallel safe
  set search_path = ''
  as $$ select private.keyed_hash(s.secret, address) from private.owner_secret s $$;
comment on function private.address_hash(text) is
  'The keyed hash of an address, the same for every letter case and Unicode form (private.email_key).';

create table private.do_not_email (
  address_hash bytea primary key,
  reason text not null check (reason in ('erased', 'unsubscribed', 'bounced', 'suppressed')),
  added_at timestamptz not null default now()
);
comment on table private.do_not_email is
  'Addresses never to export or email, as private.address_hash(). An ''erased'' entry yields to a '
  'signup made after it (a new consent); the others always apply.';

-- Every signup's keyed hash, kept by triggers like private.waiting_list_keys, so matching the
-- list against the do-not-email list hashes nothing at export or send time.
create table private.waiting_list_hashes (
  id bigint primary key references public.waiting_list (id) on delete cascade on update cascade,
  address_hash bytea not null
);
create index waiting_list_hashes_address_hash_idx on private.waiting_list_hashes (address_hash);
comment on table private.waiting_list_hashes is
  'private.address_hash(email) of every row of public.waiting_list; deleted with the row.';
insert into private.waiting_list_hashes (id, address_hash)
select id, private.address_hash(email) from public.waiting_list;

create function private.hash_new_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  insert into private.waiting_list_hashes (id, address_hash) select id, private.address_hash(email) from new_rows;
  return null;
end;
$$;

create function private.rehash_changed_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  update private.waiting_list_hashes h set address_hash = private.address_hash(n.email)
  from new_rows n where h.id = n.id;
  return null;
end;
$$;

create trigger hash_new_signups
  after insert on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.hash_new_signups();

create trigger rehash_changed_signups
  after update on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.rehash_changed_signups();

-- The signups that may be exported and emailed: `waitlist export` and `notify` read this. The
-- do-not-email list is small, so the excluded ids are one hashed set. security_invoker: it never
-- shows the list to a role that may not read the table.
create view private.mailable_signups with (security_invoker = true) as
  select w.id, w.email, w.created_at
  from public.waiting_list w
  where w.id not in (
    select h.id
    from private.do_not_email d
    join private.waiting_list_hashes h on h.address_hash = d.address_hash
    join public.waiting_list l on l.id = h.id
    where not (d.reason = 'erased' and l.created_at > d.added_at));
comment on view private.mailable_signups is
  'public.waiting_list without the do-not-email list (an erased address that signed up again is back).';

-- One row per campaign and address: the primary key is what makes a message go at most once.
-- pending -> sending (committed before the SMTP server gets it) -> sent | failed | skipped.
-- A row left in 'sending' by a killed run is uncertain: the server may or may not have it.
create table private.notify_journal (
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
create index notify_journal_waiting_idx on private.notify_journal (campaign, state, signup_id);
create index notify_journal_signup_idx on private.notify_journal (signup_id);
comment on table private.notify_journal is
  'Who was sent which campaign, by keyed hash. detail: the SMTP reply of a failure, address removed.';

revoke all on table private.owner_secret, private.do_not_email, private.notify_journal
  from public, anon, authenticated, service_role;
revoke all on function private.address_hash(text) from public;
revoke all on function private.keyed_hash(bytea, text) from public;
revoke all on function private.hash_new_signups() from public;
revoke all on function private.rehash_changed_signups() from public;
revoke all on table private.waiting_list_hashes from public, anon, authenticated, service_role;
revoke all on table private.mailable_signups from public, anon, authenticated, service_role;

-- The waiting list: the table, the rules an address must meet, who may do what, the duplicate
-- check and each signup's keyed hash. Visitors write here directly with the public key, so this
-- schema is the only guard. The abuse guard (limits per network) is the next migration.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

-- Not in the API's exposed schemas (public, graphql_public): unreachable over HTTP.
create schema if not exists private;
revoke all on schema private from public;
comment on schema private is 'Internal tables and functions; never exposed through the Data API.';

create table public.waiting_list (
  id bigint generated always as identity primary key,
  email text not null,
  created_at timestamptz not null default now(),

  -- docs/product.md §5 and the client's EMAIL_SHAPE (src/features/waitlist/email.ts): text, @,
  -- text, a dot, text; no JavaScript \s (PostgreSQL's own \s is ASCII-only, so the bracket lists
  -- it); nothing that draws nothing: control (Cc), invisible formatting (Cf) and
  -- Default_Ignorable_Code_Point characters, U+2800, U+16FE4 and U+1D159, listed as ranges because
  -- PostgreSQL's regular expressions have no \p{...} (Unicode 17.0; U+0000 cannot be stored in
  -- text at all). supabase/tests/email-shape.test.ts proves client and database refuse exactly
  -- the same code points (and names any that a newer Unicode makes differ). Replaced by
  -- private.email_format_ok() in 20261125100100_one_mailbox_one_address.sql.
  constraint waiting_list_email_format check (
    email ~ '^[^@]+@[^@]+\.[^@]+$'
    and email !~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
    and email !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U00016fe4\U0001bca0-\U0001bca3\U0001d159\U0001d173-\U0001d17a\U000e0000-\U000e0fff]'
  ),
  -- RFC 5321's limit, counted in characters like the client's EMAIL_MAX_LENGTH.
  constraint waiting_list_email_length check (char_length(email) <= 254)
);

comment on table public.waiting_list is
  'Addresses to notify at launch. The public key may add one; nobody but service_role may read the list.';
comment on column public.waiting_list.id is 'Generated; never set by a client.';
comment on column public.waiting_list.email is
  'As typed (trimmed by the page). Shape and length enforced by checks; unique on private.email_key(email) '
  'through private.waiting_list_keys, checked at the end of the statement.';
comment on column public.waiting_list.created_at is 'When the visitor signed up; always the insert''s time.';

-- Older projects grant everything to the API roles by default: start from nothing.
alter table public.waiting_list enable row level security;
revoke all on table public.waiting_list from public, anon, authenticated, service_role;
revoke all on sequence public.waiting_list_id_seq from public, anon, authenticated, service_role;

-- The public may name the email column and nothing else. Without SELECT the list cannot be
-- read or counted; PostgREST's default "return=minimal" insert needs no SELECT.
grant insert (email) on table public.waiting_list to anon, authenticated;
-- Export (service_role bypasses row-level security).
grant select on table public.waiting_list to service_role;

-- Rows are fresh signups: nobody may backdate or postdate one. The grants already keep
-- created_at out of reach; the policy states the invariant should a later grant widen them.
-- The address rules stay CHECK constraints: a policy runs first and would hide their 23514.
create policy waiting_list_fresh_signup on public.waiting_list
  for insert to anon, authenticated
  with check (created_at = now());
comment on policy waiting_list_fresh_signup on public.waiting_list is
  'Visitors may add a signup stamped with the current time, and nothing else.';

-- The duplicate check. Not a unique index on the table: that would refuse a listed address at
-- its own row, before a later row of the same statement had its own checks (a free probe). The
-- key lives here, filled by AFTER STATEMENT triggers, so it is checked once every row passed.

-- THE one definition of "the same address": NFC (so a precomposed and a decomposed á are one
-- letter), then lower case (lower() folds Unicode under C.UTF-8, Supabase's locale). The stored
-- address stays as typed.
create function private.email_key(address text) returns text
  language sql immutable parallel safe strict
  set search_path = ''
  as $$ select lower(normalize(address, nfc)) $$;
comment on function private.email_key(text) is
  'The key two addresses share when they are the same address: lower(normalize(address, NFC)).';
revoke all on function private.email_key(text) from public;

-- Each signup's keyed hash, for the owner's do-not-email list and send journal (cli/,
-- docs/operations.md), which hold hashes, never addresses. The key: 32 random bytes, made once by
-- this migration, never leaving the database (nothing reads it but private.address_hash). Losing it (a restore without this row)
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

revoke all on table private.owner_secret from public, anon, authenticated, service_role;
revoke all on function private.keyed_hash(bytea, text) from public;
revoke all on function private.address_hash(text) from public;

create table private.waiting_list_keys (
  id bigint primary key references public.waiting_list (id) on delete cascade on update cascade,
  email_key text not null,
  address_hash bytea not null,
  constraint waiting_list_email_key unique (email_key)
);
create index waiting_list_keys_address_hash_idx on private.waiting_list_keys (address_hash);
comment on table private.waiting_list_keys is
  'private.email_key(email) of every row of public.waiting_list, unique: the list''s duplicate check; '
  'and private.address_hash(email), what the owner''s lists match. Kept by triggers; deleting a row '
  'of the list deletes its key.';

create function private.key_new_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  insert into private.waiting_list_keys (id, email_key, address_hash)
  select id, private.email_key(email), private.address_hash(email) from new_rows;
  return null;
exception when unique_violation then
  -- Same code and message, without the DETAIL, which would quote the key to a role that may not
  -- read the list (PostgreSQL itself leaves it out for such a role).
  raise unique_violation using message = sqlerrm;
end;
$$;

create function private.rekey_changed_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  update private.waiting_list_keys k
  set email_key = private.email_key(n.email), address_hash = private.address_hash(n.email)
  from new_rows n
  where k.id = n.id and k.email_key is distinct from private.email_key(n.email);
  return null;
exception when unique_violation then
  raise unique_violation using message = sqlerrm;
end;
$$;
revoke all on function private.key_new_signups() from public;
revoke all on function private.rekey_changed_signups() from public;

create trigger key_new_signups
  after insert on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.key_new_signups();

create trigger rekey_changed_signups
  after update on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.rekey_changed_signups();

reset lock_timeout;
reset statement_timeout;

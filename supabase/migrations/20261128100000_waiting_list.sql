-- The waiting list: the table visitors write to with the public key, the rule an address must
-- meet, "the same address", and each signup's address hash (the duplicate check). Visitors write
-- here directly, so the database is the only guard: the guard's limits are the next file, the
-- sealing of each address the one after.
--
-- Every file of this baseline may run again over a database of the chain before it
-- (supabase/tests/fixtures/chain-2026-11-26/), once supabase/baseline/from-chain-2026-11-26.sql
-- has cleaned it up: `npm run waitlist -- baseline` does both in one transaction. So tables,
-- indexes and sequences are made `if not exists` (their rows stay), code is made `or replace`,
-- and every comment, grant and setting is set again.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole.
-- Session-level and reset at the end: `supabase db push` runs each file in one transaction but not
-- in a transaction block, where SET LOCAL only warns.
set lock_timeout = '5s';
set statement_timeout = '60s';

-- Not in the API's exposed schemas (public, graphql_public): unreachable over HTTP.
create schema if not exists private;
revoke all on schema private from public;
comment on schema private is 'Internal tables and functions; never exposed through the Data API.';
-- Supabase installs pgcrypto in schema extensions; a bare PostgreSQL gets it the same way.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- THE address rule (docs/product.md §5; the client's EMAIL_SHAPE in src/features/waitlist/email.ts
-- refuses the same, proven by supabase/tests/email-shape.test.ts): text, @, text, a dot, text; no
-- JavaScript \s (PostgreSQL's own \s is ASCII-only, so the bracket lists it); no double quote (a
-- quoted local part is another spelling of a mailbox); no final dot (ada@example.com. is
-- ada@example.com); nothing that draws nothing: control (Cc), invisible formatting (Cf) and
-- Default_Ignorable_Code_Point characters, U+2800, U+16FE4 and U+1D159, listed as ranges because
-- PostgreSQL's regular expressions have no \p{...} (Unicode 17.0; U+0000 cannot be stored in text).
create or replace function private.email_format_ok(address text) returns boolean
  language sql immutable parallel safe strict
  set search_path = ''
  as $$
  select address ~ '^[^@"]+@[^@"]+\.[^@"]*[^@".]$'
     and address !~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
     and address !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U00016fe4\U0001bca0-\U0001bca3\U0001d159\U0001d173-\U0001d17a\U000e0000-\U000e0fff]'
$$;
comment on function private.email_format_ok(text) is
  'Whether an address meets the list''s format rule (without the length): the check waiting_list_email_format.';
revoke all on function private.email_format_ok(text) from public;
-- A check runs its functions as the inserting role. Without USAGE on schema private the API roles
-- still cannot call it by name.
grant execute on function private.email_format_ok(text) to anon, authenticated;

create table if not exists public.waiting_list (
  id bigint generated always as identity primary key,
  -- Null once sealed (the sealing trigger enforces NOT NULL on what a client sends).
  email text,
  created_at timestamptz not null default now(),
  constraint waiting_list_email_format check (private.email_format_ok(email)),
  -- RFC 5321's limit, counted in characters like the client's EMAIL_MAX_LENGTH.
  constraint waiting_list_email_length check (char_length(email) <= 254)
);
comment on table public.waiting_list is
  'Addresses to notify at launch. Visitors (anon, authenticated) may add one per request, naming the email '
  'column only; no API role may read the list: the owner''s command reads it as postgres.';
comment on column public.waiting_list.id is 'Generated; never set by a client.';
comment on column public.waiting_list.email is
  'The insert target. Null once sealed (the address then lives only in private.signup_addresses.seal); '
  'as typed before `waitlist keys init`. Checked by private.check_address() before sealing.';
comment on column public.waiting_list.created_at is 'When the visitor signed up; always the insert''s time.';
-- No address goes into pg_statistic (ANALYZE samples column values into a logged catalog).
alter table public.waiting_list alter column email set statistics 0;
-- The rows still stored as typed: before keys init all of them, afterwards only those that arrived
-- with triggers off (private.seal_pending() seals them).
create index if not exists waiting_list_plaintext_idx on public.waiting_list (id) where email is not null;

-- Older projects grant everything to the API roles by default: start from nothing. The public may
-- name the email column and nothing else: without SELECT the list cannot be read or counted, and
-- PostgREST's default "return=minimal" insert needs none.
alter table public.waiting_list enable row level security;
revoke all on table public.waiting_list from public, anon, authenticated, service_role;
revoke all on sequence public.waiting_list_id_seq from public, anon, authenticated, service_role;
grant insert (email) on table public.waiting_list to anon, authenticated;

-- Rows are fresh signups: nobody may backdate or postdate one. The grants already keep created_at
-- out of reach; the policy states the invariant should a later grant widen them. The address rules
-- stay checks: a policy runs first and would hide their 23514.
create policy waiting_list_fresh_signup on public.waiting_list
  for insert to anon, authenticated
  with check (created_at = now());
comment on policy waiting_list_fresh_signup on public.waiting_list is
  'Visitors may add a signup stamped with the current time, and nothing else.';

-- The table's own address checks, run by the guard and the sealing trigger before the address is
-- hidden from them: the same codes, constraint names and messages, and no DETAIL (the API roles may
-- not read the row).
create or replace function private.check_address(address text) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if address is null then
    raise not_null_violation using
      message = 'null value in column "email" of relation "waiting_list" violates not-null constraint',
      schema = 'public', table = 'waiting_list', column = 'email';
  elsif not private.email_format_ok(address) then
    raise check_violation using
      message = 'new row for relation "waiting_list" violates check constraint "waiting_list_email_format"',
      schema = 'public', table = 'waiting_list', constraint = 'waiting_list_email_format';
  elsif char_length(address) > 254 then
    raise check_violation using
      message = 'new row for relation "waiting_list" violates check constraint "waiting_list_email_length"',
      schema = 'public', table = 'waiting_list', constraint = 'waiting_list_email_length';
  end if;
end;
$$;
revoke all on function private.check_address(text) from public;

-- THE one definition of "the same address": NFC (a precomposed and a decomposed á are one letter),
-- then lower case (lower() folds Unicode under C.UTF-8, Supabase's locale). The stored address
-- stays as typed.
create or replace function private.canonical_address(address text) returns text
  language sql immutable parallel safe strict
  set search_path = ''
  as $$ select lower(normalize(address, nfc)) $$;
comment on function private.canonical_address(text) is
  'The form two spellings of one address share: lower(normalize(address, NFC)). What private.address_hash() hashes.';
revoke all on function private.canonical_address(text) from public;

-- The address hash: the list's duplicate check, and the key of the owner's do-not-email list and
-- send journal, which hold hashes, never addresses. Its secret: 32 random bytes made here, read by
-- nothing but private.address_hash(). Losing it (a restore without this row) makes every hash
-- unmatchable: it is in every backup with the list.
create table if not exists private.address_hash_secret (
  one_row boolean primary key default true check (one_row),
  secret bytea not null
);
comment on table private.address_hash_secret is
  'The secret of private.address_hash(). One row, made by the migration; read by nothing else.';
alter table private.address_hash_secret alter column secret set statistics 0;
revoke all on table private.address_hash_secret from public, anon, authenticated, service_role;
insert into private.address_hash_secret (secret)
values (extensions.gen_random_bytes(32))
on conflict (one_row) do nothing;

-- sha256(secret || canonical address), then 64 rounds of HMAC-SHA256 under the secret: whoever
-- holds a copy of the database holds the secret too, and each guessed address then costs 64 HMACs.
-- pgcrypto has no PBKDF2 or scrypt, and bcrypt's crypt() reads only 72 bytes.
create or replace function private.keyed_hash(secret bytea, address text) returns bytea
  language sql immutable parallel safe
  set search_path = ''
  as $$ select sha256(secret || convert_to(private.canonical_address(address), 'UTF8')) $$;
revoke all on function private.keyed_hash(bytea, text) from public;

create or replace function private.stretch_hash(secret bytea, digest bytea) returns bytea
  language plpgsql immutable parallel safe strict
  set search_path = ''
  as $$
declare
  h bytea := digest;
begin
  for i in 1 .. 64 loop
    h := extensions.hmac(h, secret, 'sha256');
  end loop;
  return h;
end;
$$;
revoke all on function private.stretch_hash(bytea, bytea) from public;

create or replace function private.address_hash(address text) returns bytea
  language sql stable parallel safe
  set search_path = ''
  as $$ select private.stretch_hash(s.secret, private.keyed_hash(s.secret, address)) from private.address_hash_secret s $$;
comment on function private.address_hash(text) is
  'The address hash, the same for every spelling of an address (private.canonical_address): 64 rounds of '
  'HMAC-SHA256 under private.address_hash_secret over sha256(secret || canonical address). The one definition: call it.';
revoke all on function private.address_hash(text) from public;

-- Each signup's address hash, unique: the duplicate check. Not a unique index on the list itself:
-- that would refuse a listed address at its own row, before a later row of the same statement had
-- its own checks (a free probe). The unique key is deferred and checked once each statement's
-- every row passed (check_signup_addresses, below). Written by the sealing trigger
-- (private.seal_signup(), 20261128100200_sealing.sql), which also stores the seal here.
create table if not exists private.signup_addresses (
  -- Deferred: the trigger writes this row before the signup's own row exists.
  id bigint primary key references public.waiting_list (id) on delete cascade on update cascade
    deferrable initially deferred,
  address_hash bytea not null,
  seal bytea,
  hour_key_id bigint,
  -- PostgREST names this constraint in its 409; the name is part of the API.
  constraint waiting_list_email_key unique (address_hash) deferrable initially deferred,
  constraint signup_addresses_seal_names_its_key check ((seal is null) = (hour_key_id is null))
);
comment on table private.signup_addresses is
  'Per signup of public.waiting_list: its address hash, unique (the list''s duplicate check, what the owner''s '
  'lists match), and once sealed its seal. Deleting a signup deletes its row.';
comment on column private.signup_addresses.seal is
  'iv ‖ AES-256-CBC(address) ‖ HMAC-SHA256(hour key id ‖ signup id ‖ iv ‖ ciphertext) under hour key '
  'hour_key_id; null while the address is stored as typed.';
comment on column private.signup_addresses.hour_key_id is
  'The private.wrapped_hour_keys key that sealed this row; null while not sealed.';
revoke all on table private.signup_addresses from public, anon, authenticated, service_role;

-- The duplicate check, at the end of each statement that added or changed addresses.
create or replace function private.check_signup_addresses() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  set constraints private.waiting_list_email_key immediate;
  set constraints private.waiting_list_email_key deferred;
  return null;
exception when unique_violation then
  -- Same code and message, without the DETAIL, which would show the hash to a role that may not
  -- read the list (PostgreSQL itself leaves it out for such a role).
  raise unique_violation using message = sqlerrm;
end;
$$;
revoke all on function private.check_signup_addresses() from public;

create or replace trigger check_new_signup_addresses
  after insert on public.waiting_list
  for each statement
  execute function private.check_signup_addresses();

create or replace trigger check_changed_signup_addresses
  after update of email on public.waiting_list
  for each statement
  execute function private.check_signup_addresses();

reset lock_timeout;
reset statement_timeout;

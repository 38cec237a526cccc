-- The owner's side (cli/, `npm run waitlist`): the do-not-email list and the send journal.
-- Neither holds an address: both hold a keyed hash of it (private.address_hash), so an erased
-- person's address is gone from the database while no later send or import can reach it.

-- TEMP until the db branch merges
create or replace function private.email_key(address text) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select lower(normalize(address, NFC)) $$;
revoke all on function private.email_key(text) from public;
-- TEMP until the db branch merges
create table if not exists private.allowed_origins (origin text primary key);

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
create function private.address_hash(address text) returns bytea
  language sql stable parallel safe
  set search_path = ''
  as $$
  select sha256(s.secret || convert_to(private.email_key(address), 'UTF8')) from private.owner_secret s
$$;
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

-- May this signup be exported or emailed? Used by `waitlist export` and `waitlist notify`.
create function private.may_email(address text, signed_up_at timestamptz) returns boolean
  language sql stable parallel safe
  set search_path = ''
  as $$
  select not exists (
    select from private.do_not_email d
    where d.address_hash = private.address_hash(address)
      and not (d.reason = 'erased' and signed_up_at > d.added_at))
$$;

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
create index notify_journal_waiting_idx on private.notify_journal (campaign, state);
create index notify_journal_signup_idx on private.notify_journal (signup_id);
comment on table private.notify_journal is
  'Who was sent which campaign, by keyed hash. detail: the SMTP reply of a failure, address removed.';

revoke all on table private.owner_secret, private.do_not_email, private.notify_journal
  from public, anon, authenticated, service_role;
revoke all on table private.allowed_origins from public, anon, authenticated, service_role;
revoke all on function private.address_hash(text) from public;
revoke all on function private.may_email(text, timestamptz) from public;

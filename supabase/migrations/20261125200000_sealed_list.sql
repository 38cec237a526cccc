-- Sealed at rest (supabase/security.md, "Sealed at rest: what a stolen database yields"): once
-- the owner ran `npm run waitlist -- keys init`, no address is stored in plaintext. Each signup is sealed by a
-- BEFORE trigger, before its row reaches the table (or the WAL), with the current step of a hash
-- ratchet whose start, the recovery key, never touches the database:
-- * private.seal_key holds the current step i and its chain key kᵢ, nothing older. Each hour
--   private.advance_seal_key() replaces it with kᵢ₊₁ = HMAC-SHA256(kᵢ, 'waitlist ratchet: next
--   chain key') and truncates the old one away (a new file: the old key's bytes leave the table's
--   file at once; what WAL and backups still hold is in security.md).
-- * A row's seal: AES-256-CBC with a random IV and HMAC-SHA256 over step ‖ id ‖ IV ‖ ciphertext
--   (encrypt-then-MAC), under two keys derived from kᵢ with their own labels. pgcrypto's
--   encrypt(…, 'aes') would use a zero IV: not that. Only the owner's command opens seals
--   (cli/seal/), never SQL.
-- * The duplicate check is the keyed hash private.address_hash(email), unique as
--   waiting_list_email_key; the plaintext duplicate key (email_key) goes.
-- * public.waiting_list.email is only the insert target: NULL once sealed. Before keys init rows
--   are stored as before (plaintext), and a signup is never refused for want of a key.
-- * Rows that arrive with triggers off (a data-only restore) are keyed and sealed by
--   private.seal_pending(): hourly, and by the owner's commands before they read the list.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

-- Supabase installs pgcrypto in schema extensions; a bare PostgreSQL gets it the same way.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- The current step of the ratchet. One row at most; none before `keys init`.
create table private.seal_key (
  one_row boolean primary key default true check (one_row),
  step integer not null check (step >= 1),
  chain_key bytea not null check (length(chain_key) = 32),
  encryption_key bytea not null,
  authentication_key bytea not null,
  advanced_at timestamptz not null default now()
);
comment on table private.seal_key is
  'The ratchet''s current step and keys; the step before it is gone. Installed by `waitlist keys init`, '
  'advanced hourly by private.advance_seal_key().';

-- Whether sealing was ever turned on, kept apart from the key (which is truncated hourly): a
-- transaction whose snapshot predates a truncation sees private.seal_key empty, and must then not
-- store an address in plaintext.
create table private.seal_chain (
  one_row boolean primary key default true check (one_row),
  started_at timestamptz not null default now()
);
comment on table private.seal_chain is
  'One row once `waitlist keys init` ran: when the current recovery key''s chain began.';

revoke all on table private.seal_key, private.seal_chain from public, anon, authenticated, service_role;

create function private.ratchet_derive(chain_key bytea, label text) returns bytea
  language sql immutable parallel safe strict
  set search_path = ''
  as $$ select extensions.hmac(convert_to(label, 'UTF8'), chain_key, 'sha256') $$;
comment on function private.ratchet_derive(bytea, text) is
  'HMAC-SHA256(chain key, label): the next chain key and each step''s two sealing keys (cli/seal/ratchet.ts).';

-- Makes (step, chain key) the current step: `waitlist keys init` and `keys rotate` call it inside
-- their transaction (an update, which waits for no signup); the hourly step truncates first.
create function private.set_seal_key(step integer, chain_key bytea) returns void
  language sql
  set search_path = ''
  as $$
  insert into private.seal_key (step, chain_key, encryption_key, authentication_key)
  values (step, chain_key,
          private.ratchet_derive(chain_key, 'waitlist ratchet: encryption key'),
          private.ratchet_derive(chain_key, 'waitlist ratchet: authentication key'))
  on conflict (one_row) do update
    set step = excluded.step, chain_key = excluded.chain_key, encryption_key = excluded.encryption_key,
        authentication_key = excluded.authentication_key, advanced_at = now()
$$;
comment on function private.set_seal_key(integer, bytea) is
  'Makes (step, chain key) the current step, deriving its sealing keys. Called by `waitlist keys init` and `keys rotate`.';

-- The hourly step. TRUNCATE, not UPDATE: the table gets a new file holding only the new key, and
-- the old file is emptied at commit, so no dead row version keeps the old key until a vacuum.
-- Waits at most 2 s for in-flight signups (a failed run is retried the next hour;
-- private.seal_status() names a ratchet that stalled).
create function private.advance_seal_key() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  current private.seal_key;
begin
  perform set_config('lock_timeout', '2s', true);
  lock table private.seal_key in access exclusive mode;
  select * into current from private.seal_key;
  if not found then
    return null; -- no key yet: nothing to advance
  end if;
  truncate private.seal_key;
  perform private.set_seal_key(current.step + 1,
                               private.ratchet_derive(current.chain_key, 'waitlist ratchet: next chain key'));
  return current.step + 1;
end;
$$;
comment on function private.advance_seal_key() is
  'Moves the ratchet one step (run hourly by pg_cron); returns the new step, or null before keys init.';

-- iv ‖ AES-256-CBC(address) ‖ HMAC-SHA256(step ‖ id ‖ iv ‖ ciphertext): cli/seal/seal.ts writes the same.
create function private.seal_address(key private.seal_key, id bigint, address text) returns bytea
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  iv bytea := extensions.gen_random_bytes(16);
  ciphertext bytea := extensions.encrypt_iv(convert_to(address, 'UTF8'), key.encryption_key, iv, 'aes-cbc/pad:pkcs');
begin
  return iv || ciphertext
         || extensions.hmac(int4send(key.step) || int8send(id) || iv || ciphertext, key.authentication_key, 'sha256');
end;
$$;

-- The duplicate check becomes the keyed hash; no column holds a plaintext key any more. The table
-- is small (one short row per signup), read and written only by the triggers and the owner's
-- command, so its brief locks here are fine (a migration runs in one transaction: nothing
-- CONCURRENTLY), and no client reads the dropped column.
alter table private.waiting_list_keys
  drop constraint waiting_list_email_key,
  -- squawk-ignore ban-drop-column
  drop column email_key,
  add column step integer,
  add column sealed bytea,
  -- squawk-ignore constraint-missing-not-valid
  add constraint waiting_list_keys_sealed_step check ((step is null) = (sealed is null)),
  -- The trigger writes a signup's key row before the signup's own row exists.
  alter constraint waiting_list_keys_id_fkey deferrable initially deferred;
-- Checked once the statement's every row passed its own checks (check_signup_keys, below), as
-- before: a second row of a public role's request is refused (400 PT400) before a listed first
-- row could answer 409.
alter table private.waiting_list_keys
  -- squawk-ignore constraint-missing-not-valid,disallowed-unique-constraint
  add constraint waiting_list_email_key unique (address_hash) deferrable initially deferred;
-- squawk-ignore require-concurrent-index-deletion
drop index private.waiting_list_keys_address_hash_idx;
comment on table private.waiting_list_keys is
  'Per signup of public.waiting_list: private.address_hash(email), unique (the list''s duplicate check, what '
  'the owner''s lists match), and the sealed address with its ratchet step (null while stored in plaintext).';
comment on column private.waiting_list_keys.sealed is
  'iv ‖ AES-256-CBC ciphertext ‖ HMAC-SHA256 tag, under the keys of `step` (cli/seal/seal.ts).';

-- A sealed row's address is NULL; NOT NULL is enforced by the trigger (same 23502 as before), and
-- no client reads the column (the API roles have no SELECT).
-- squawk-ignore ban-drop-not-null
alter table public.waiting_list alter column email drop not null;
comment on column public.waiting_list.email is
  'The insert target. NULL once sealed (the address then lives only in private.waiting_list_keys.sealed); as '
  'typed before `waitlist keys init`. Shape and length enforced by checks and by private.seal_signup().';
-- The rows still in plaintext: before keys init all of them, afterwards only those that arrived with triggers off.
-- squawk-ignore require-concurrent-index-creation
create index waiting_list_plaintext_idx on public.waiting_list (id) where email is not null;

-- The list's address checks, before sealing hides the address from the table's own checks: the
-- same codes, constraint names and messages, and no DETAIL (the API roles may not read the row).
create function private.check_address(address text) returns void
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

-- Checks, keys and seals one signup. BEFORE ROW, named to fire after the guard's triggers
-- (limit_rows_per_request, limit_signups: triggers fire in name order).
create function private.seal_signup() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  key private.seal_key;
  sealed bytea;
begin
  perform private.check_address(new.email);
  select * into key from private.seal_key;
  if found then
    sealed := private.seal_address(key, new.id, new.email);
  elsif exists (select from private.seal_chain) then
    -- The key was replaced after this transaction's snapshot (REPEATABLE READ, SERIALIZABLE).
    raise serialization_failure using message = 'could not serialize access due to concurrent update';
  end if;
  insert into private.waiting_list_keys (id, address_hash, step, sealed)
  values (new.id, private.address_hash(new.email), key.step, sealed)
  on conflict (id) do update
    set address_hash = excluded.address_hash, step = excluded.step, sealed = excluded.sealed;
  if sealed is not null then
    new.email := null;
  end if;
  return new;
end;
$$;
revoke all on function private.ratchet_derive(bytea, text) from public;
revoke all on function private.set_seal_key(integer, bytea) from public;
revoke all on function private.advance_seal_key() from public;
revoke all on function private.seal_address(private.seal_key, bigint, text) from public;
revoke all on function private.check_address(text) from public;
revoke all on function private.seal_signup() from public;

-- The duplicate check, at the end of each statement that added or changed addresses.
create function private.check_signup_keys() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  set constraints private.waiting_list_email_key immediate;
  set constraints private.waiting_list_email_key deferred;
  return null;
exception when unique_violation then
  -- Same code and message, without the DETAIL, which would show the key to a role that may not
  -- read the list (PostgreSQL itself leaves it out for such a role).
  raise unique_violation using message = sqlerrm;
end;
$$;
revoke all on function private.check_signup_keys() from public;

drop trigger key_new_signups on public.waiting_list;
drop trigger rekey_changed_signups on public.waiting_list;
drop function private.key_new_signups();
drop function private.rekey_changed_signups();

create trigger seal_new_signups
  before insert on public.waiting_list
  for each row
  execute function private.seal_signup();

create trigger seal_changed_signups
  before update of email on public.waiting_list
  for each row
  when (new.email is not null)
  execute function private.seal_signup();

create trigger check_new_signup_keys
  after insert on public.waiting_list
  for each statement
  execute function private.check_signup_keys();

create trigger check_changed_signup_keys
  after update of email on public.waiting_list
  for each statement
  execute function private.check_signup_keys();

-- The guard's membership look-up, by the keyed hash (unchanged otherwise).
create or replace function private.limit_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  clock timestamptz := private.signup_clock();
  -- UTC whatever the request's time zone (PostgREST applies Prefer: timezone=... as SET LOCAL
  -- timezone): date_trunc with 'UTC', and '24 hours', which unlike '1 day' is never 23 or 25.
  slot_start timestamptz := date_bin('10 minutes', clock, timestamptz '2000-01-01 00:00:00+00');
  day_start timestamptz := date_trunc('day', clock, 'UTC');
  -- Normally prepared by the upkeep job; if this request must create it, the secret is rolled
  -- back with a duplicate, and so would be the duplicate's count.
  secret_is_new boolean := not exists (select from private.signup_secrets s where s.day_start = date_trunc('day', clock, 'UTC'));
  secret bytea := private.signup_secret(day_start);
  client record;
  quota private.signup_limits;
  key bytea;
  keys bytea[] := '{}';
  too_many constant text := 'Too many signups from this network. Try again in a few minutes.';
begin
  -- Prefer: tx=rollback would let a request learn its answer and leave no count (hosted
  -- PostgREST ignores tx=, but the guard does not rely on that). Unreadable headers stop here.
  if coalesce(private.request_header('prefer'), '') ~* '(^|[,;[:space:]])tx[[:space:]]*=' then
    perform private.refuse_request(400, 'Bad Request', 'PT400', 'Transaction preferences are not accepted.', 'Send no tx= in Prefer.');
  end if;
  if not private.origin_allowed() then
    perform private.refuse_request(403, 'Forbidden', 'PT403', 'Signups are accepted from this site''s own pages only.');
  end if;
  -- Broadest network first, 10-minute slot before the day, 'all' last: every request takes its
  -- row locks in the same order, so concurrent signups cannot deadlock.
  for client in select * from private.client_networks() loop
    select * into quota from private.signup_limits l where l.scope = client.scope;
    continue when not found; -- a scope without a row is not limited
    key := sha256(secret || convert_to(client.network, 'UTF8'));
    keys := keys || key;
    -- count_signup counts this attempt too (rolled back with a refused one).
    if private.count_signup(key, slot_start, slot_start + interval '10 minutes')
         + private.count_duplicate(key, 'slot', slot_start, interval '10 minutes', false) > quota.per_10_minutes
       or private.count_signup(key, day_start, day_start + interval '24 hours')
         + private.count_duplicate(key, 'day', day_start, interval '24 hours', false) > quota.per_day then
      perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
    end if;
  end loop;
  select * into quota from private.signup_limits l where l.scope = 'all';
  if found and (private.count_all(secret, slot_start, slot_start + interval '10 minutes')
                  + private.count_all_duplicates('slot', slot_start, interval '10 minutes', false) > quota.per_10_minutes
                or private.count_all(secret, day_start, day_start + interval '24 hours')
                  + private.count_all_duplicates('day', day_start, interval '24 hours', false) > quota.per_day) then
    perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
  end if;

  -- Admitted as far as the limits go: only now is the address looked up.
  if not exists (select from private.waiting_list_keys k where k.address_hash = private.address_hash(new.email)) then
    return new;
  end if;
  -- A duplicate keeps its count past the coming rollback, unless that rollback takes the secret.
  if secret_is_new then
    perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
  end if;
  -- Duplicates update the sequences one at a time. Taken after every row lock of the request, and
  -- nothing but setval follows it: no lock order to invert.
  perform pg_advisory_xact_lock(hashtext('waitlist duplicates'));
  perform private.count_all_duplicates('slot', slot_start, interval '10 minutes', true),
          private.count_all_duplicates('day', day_start, interval '24 hours', true);
  foreach key in array keys loop
    perform private.count_duplicate(key, 'slot', slot_start, interval '10 minutes', true),
            private.count_duplicate(key, 'day', day_start, interval '24 hours', true);
  end loop;
  return new;
end;
$$;

-- Rows that came in with triggers off (session_replication_role = replica, a data-only restore):
-- keyed, then sealed under the current step. A second row of an address already listed stays
-- unkeyed and in plaintext, named by seal_status() until the owner deletes it.
create function private.seal_pending() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  key private.seal_key;
  keyed integer;
  sealed integer := 0;
begin
  -- The first row of each address not listed yet (no ON CONFLICT: the unique key is deferrable).
  insert into private.waiting_list_keys (id, address_hash)
  select distinct on (h.address_hash) h.id, h.address_hash
  from (select w.id, private.address_hash(w.email) as address_hash from public.waiting_list w
        where w.email is not null and not exists (select from private.waiting_list_keys k where k.id = w.id)) h
  where not exists (select from private.waiting_list_keys k where k.address_hash = h.address_hash)
  order by h.address_hash, h.id;
  get diagnostics keyed = row_count;
  set constraints private.waiting_list_email_key immediate;
  set constraints private.waiting_list_email_key deferred;
  select * into key from private.seal_key;
  if found then
    with plain as (
      select w.id, w.email from public.waiting_list w
      where w.email is not null and exists (select from private.waiting_list_keys k where k.id = w.id)
      for update of w),
    stored as (
      update private.waiting_list_keys k set step = key.step, sealed = private.seal_address(key, p.id, p.email)
      from plain p where k.id = p.id
      returning k.id)
    update public.waiting_list w set email = null from stored s where w.id = s.id;
    get diagnostics sealed = row_count;
  end if;
  return keyed + sealed;
end;
$$;
comment on function private.seal_pending() is
  'Keys and seals rows that arrived with triggers off; returns how many rows it changed.';

-- What `waitlist count` and `waitlist health` report about sealing.
create function private.seal_status(
  out sealing boolean, out step integer, out advanced_at timestamptz, out stalled boolean,
  out plaintext bigint, out unkeyed bigint, out unreadable bigint)
  language sql stable
  set search_path = ''
  as $$
  select k.step is not null,
         k.step,
         k.advanced_at,
         coalesce(k.advanced_at < now() - interval '90 minutes', false),
         (select count(*) from public.waiting_list w where w.email is not null),
         (select count(*) from public.waiting_list w
          where not exists (select from private.waiting_list_keys h where h.id = w.id)),
         (select count(*) from public.waiting_list w left join private.waiting_list_keys h on h.id = w.id
          where w.email is null and h.sealed is null)
  from (select 1) one left join private.seal_key k on true
$$;
comment on function private.seal_status() is
  'sealing: a key is installed; stalled: the ratchet has not moved for 90 minutes (its hourly job failed or '
  'is missing); plaintext: rows whose address is stored as typed; unkeyed: rows outside the duplicate check; '
  'unreadable: rows with neither an address nor a seal.';
revoke all on function private.seal_pending() from public;
revoke all on function private.seal_status() from public;

-- The spreadsheet escape moves to the owner's command, which alone sees the addresses (cli/seal/csv.ts).
drop function private.csv_cell(text);

-- The list is the owner's alone: service_role reads nothing of it any more.
revoke select on table public.waiting_list from service_role;

-- mailable_signups now carries what opens a sealed address.
drop view private.mailable_signups;
create view private.mailable_signups with (security_invoker = true) as
  select w.id, w.email, k.step, k.sealed, w.created_at
  from public.waiting_list w
  left join private.waiting_list_keys k on k.id = w.id
  where w.id not in (
    select h.id
    from private.do_not_email d
    join private.waiting_list_keys h on h.address_hash = d.address_hash
    join public.waiting_list l on l.id = h.id
    where not (d.reason = 'erased' and l.created_at > d.added_at));
comment on view private.mailable_signups is
  'public.waiting_list without the do-not-email list (an erased address that signed up again is back), '
  'with each row''s seal: email is null once sealed.';
revoke all on table private.mailable_signups from public, anon, authenticated, service_role;

-- The hourly step, and the hourly sweep of rows that arrived with triggers off, in their own
-- transactions: the step holds the key's lock only for itself.
do $$
begin
  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('waitlist-seal-ratchet', '0 * * * *', 'select private.advance_seal_key()');
    perform cron.schedule('waitlist-seal-pending', '5 * * * *', 'select private.seal_pending()');
  else
    raise warning 'pg_cron is not available: run "select private.advance_seal_key()" hourly some other way, '
                  'or new signups stay readable with the key the database holds (waitlist count names it).';
  end if;
end;
$$;

reset lock_timeout;
reset statement_timeout;

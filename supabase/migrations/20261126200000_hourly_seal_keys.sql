-- Hourly sealing keys that never reach the WAL (supabase/security.md, "Sealed at rest").
-- * The owner's OpenPGP public key (RSA; pgcrypto takes no ECC) sits in private.owner_key.
--   `waitlist keys init` makes the key pair on the owner's machine; the private key never enters
--   the database.
-- * Each hour the database makes a fresh random key (gen_random_bytes(64): an AES-256 key and an
--   HMAC-SHA256 key) when the hour's first signup needs one. In clear it lives only in an UNLOGGED
--   table (never written to the WAL, so never in a WAL archive, a base backup or a replica, and
--   emptied by a crash), and only for its hour. For the owner it is kept wrapped with
--   pgp_pub_encrypt_bytea to the owner's public key in private.seal_keys, in the same transaction
--   as the first row sealed under it.
-- * Three unlogged tables take turns, one per hour (hour mod 3). A job each minute TRUNCATEs the
--   ones of past hours: TRUNCATE gives a table a new, empty file (DELETE would leave the key's bytes
--   in a dead row version, and VACUUM does not overwrite them), and its ACCESS EXCLUSIVE lock falls
--   on a table no signup of the current hour reads (taken with NOWAIT: a late signup of the hour
--   before makes the job try again a minute later).
-- * A key belongs to its hour: a signup takes only a key of the current hour (a key restored from
--   a dump of an earlier hour is ignored) and, finding none (a new hour, a crash, a restore), makes
--   one itself. Signups never wait on the owner or on the job.
-- * A row's seal: iv ‖ AES-256-CBC(address) ‖ HMAC-SHA256(key id ‖ signup id ‖ iv ‖ ciphertext).
-- * A list sealed by the ratchet (20261125200000_sealed_list.sql) goes on being sealed by it until
--   the owner moves it over (`waitlist keys upgrade`).

set lock_timeout = '5s';
set statement_timeout = '60s';

-- The owner's OpenPGP public key, binary (what pgcrypto's dearmor() gives). Public: no secret here.
create table private.owner_key (
  one_row boolean primary key default true check (one_row),
  public_key bytea not null,
  installed_at timestamptz not null default now()
);
comment on table private.owner_key is
  'The owner''s OpenPGP public key (RSA), installed by `waitlist keys init`: each hour''s key is wrapped to it.';

-- Every hour's key, wrapped: what the owner's commands open (cli/seal/hour-keys.ts).
create table private.seal_keys (
  id bigint generated always as identity primary key,
  hour timestamptz not null,
  wrapped bytea not null,
  made_at timestamptz not null default now()
);
comment on table private.seal_keys is
  'Each sealing key, wrapped to the owner''s public key (pgp_pub_encrypt_bytea); several in one hour after a crash.';

-- The current hour's key in clear, in the table of its hour (hour mod 3). Unlogged: never in the
-- WAL. No statistics (ANALYZE would copy the key into pg_statistic, a logged catalog) and no check
-- constraint on the key (a failing row is written to the log).
create unlogged table private.hour_key_0 (
  id bigint primary key,
  hour timestamptz not null,
  clear_key bytea not null
) with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
create unlogged table private.hour_key_1 (like private.hour_key_0 including all)
  with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
create unlogged table private.hour_key_2 (like private.hour_key_0 including all)
  with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
alter table private.hour_key_0 alter column clear_key set statistics 0;
alter table private.hour_key_1 alter column clear_key set statistics 0;
alter table private.hour_key_2 alter column clear_key set statistics 0;
comment on table private.hour_key_0 is 'Sealing key in clear for hours ≡ 0 (mod 3); emptied once its hour is over.';
comment on table private.hour_key_1 is 'Sealing key in clear for hours ≡ 1 (mod 3); emptied once its hour is over.';
comment on table private.hour_key_2 is 'Sealing key in clear for hours ≡ 2 (mod 3); emptied once its hour is over.';

revoke all on table private.owner_key, private.seal_keys, private.hour_key_0, private.hour_key_1, private.hour_key_2
  from public, anon, authenticated, service_role;

-- No address goes into pg_statistic from now on (ANALYZE samples column values).
-- squawk-ignore require-timeout-settings
alter table public.waiting_list alter column email set statistics 0;

-- A row's seal names the hourly key it was sealed with (null: the ratchet's step, or plaintext).
alter table private.waiting_list_keys
  add column key_id bigint,
  drop constraint waiting_list_keys_sealed_step,
  -- squawk-ignore constraint-missing-not-valid
  add constraint waiting_list_keys_sealed_by
    check (case when sealed is null then step is null and key_id is null else (step is null) <> (key_id is null) end);
comment on column private.waiting_list_keys.key_id is
  'The private.seal_keys key that sealed this row (null when sealed by the ratchet''s step, or not sealed).';

-- The sealing clock: the hour a key belongs to. Tests replace it, as they do the guard's.
create function private.seal_clock() returns timestamptz
  language sql stable
  set search_path = ''
  as $$ select now() $$;

create function private.hour_key_table(hour timestamptz) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select 'hour_key_' || ((extract(epoch from hour)::bigint / 3600) % 3)::text $$;

-- The current hour's key (id and clear key), made now if the hour has none yet; nulls before
-- keys init. Two signups that both find none make one each: both are wrapped, both open.
create function private.hour_key(out id bigint, out clear_key bytea)
  language plpgsql
  set search_path = ''
  as $$
declare
  hour timestamptz := date_trunc('hour', private.seal_clock(), 'UTC');
  slot text := private.hour_key_table(hour);
  public_key bytea;
begin
  execute format('select k.id, k.clear_key from private.%I k where k.hour = $1 order by k.id desc limit 1', slot)
    into id, clear_key using hour;
  if id is not null then
    return;
  end if;
  select o.public_key into public_key from private.owner_key o;
  if not found then
    return;
  end if;
  clear_key := extensions.gen_random_bytes(64);
  insert into private.seal_keys (hour, wrapped)
  values (hour, extensions.pgp_pub_encrypt_bytea(clear_key, public_key))
  returning seal_keys.id into id;
  execute format('insert into private.%I (id, hour, clear_key) values ($1, $2, $3)', slot) using id, hour, clear_key;
end;
$$;

-- iv ‖ AES-256-CBC(address) ‖ HMAC-SHA256(key id ‖ signup id ‖ iv ‖ ciphertext), with the key's
-- first 32 bytes for AES and its last 32 for HMAC (cli/seal/open.ts reads the same).
create function private.seal_with(key_id bigint, clear_key bytea, id bigint, address text) returns bytea
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  iv bytea := extensions.gen_random_bytes(16);
  ciphertext bytea := extensions.encrypt_iv(convert_to(address, 'UTF8'), substring(clear_key from 1 for 32), iv,
                                            'aes-cbc/pad:pkcs');
begin
  return iv || ciphertext
         || extensions.hmac(int8send(key_id) || int8send(id) || iv || ciphertext, substring(clear_key from 33 for 32),
                            'sha256');
end;
$$;

-- Empties the tables of past hours. Run each minute by pg_cron; returns how many it emptied.
create function private.retire_hour_keys() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  hour timestamptz := date_trunc('hour', private.seal_clock(), 'UTC');
  slot text;
  held boolean;
  retired integer := 0;
begin
  -- The current hour's table holds an older key only if no run emptied it in the hours before
  -- (the job stopped for over an hour): deleted, which takes no lock a signup waits for; its bytes
  -- stay in the table's file until the table is emptied after its hour.
  execute format('delete from private.%I where hour < $1', private.hour_key_table(hour)) using hour;
  foreach slot in array array['hour_key_0', 'hour_key_1', 'hour_key_2'] loop
    continue when slot = private.hour_key_table(hour);
    -- Only a table whose keys are all of past hours (the next hour's first signup may be early).
    execute format('select exists (select from private.%I) and not exists (select from private.%I where hour >= $1)',
                   slot, slot)
      into held using hour;
    continue when not held;
    begin
      execute format('lock table private.%I in access exclusive mode nowait', slot);
      execute format('truncate private.%I', slot);
      retired := retired + 1;
    exception when lock_not_available then
      null; -- a signup of the hour before still holds it: the next run empties it
    end;
  end loop;
  return retired;
end;
$$;
comment on function private.retire_hour_keys() is
  'Empties the clear-key tables of past hours (each minute, by pg_cron); returns how many it emptied.';

-- Checks, keys and seals one signup: with the hour's key once the owner's key is installed, else
-- with the ratchet while a list still uses it, else (before keys init) as typed.
create or replace function private.seal_signup() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  key_id bigint;
  clear_key bytea;
  step_key private.seal_key;
  sealed bytea;
begin
  perform private.check_address(new.email);
  select h.id, h.clear_key into key_id, clear_key from private.hour_key() h;
  if key_id is not null then
    sealed := private.seal_with(key_id, clear_key, new.id, new.email);
  else
    select * into step_key from private.seal_key;
    if found then
      sealed := private.seal_address(step_key, new.id, new.email);
    elsif exists (select from private.seal_chain) then
      raise serialization_failure using message = 'could not serialize access due to concurrent update';
    end if;
  end if;
  insert into private.waiting_list_keys (id, address_hash, step, key_id, sealed)
  values (new.id, private.address_hash(new.email), step_key.step, key_id, sealed)
  on conflict (id) do update
    set address_hash = excluded.address_hash, step = excluded.step, key_id = excluded.key_id, sealed = excluded.sealed;
  if sealed is not null then
    new.email := null;
  end if;
  return new;
end;
$$;

-- Rows that came in with triggers off: keyed, then sealed with the hour's key (or the ratchet's).
create or replace function private.seal_pending() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  hour_key_id bigint;
  hour_clear_key bytea;
  step_key private.seal_key;
  keyed integer;
  sealed integer := 0;
begin
  insert into private.waiting_list_keys (id, address_hash)
  select distinct on (h.address_hash) h.id, h.address_hash
  from (select w.id, private.address_hash(w.email) as address_hash from public.waiting_list w
        where w.email is not null and not exists (select from private.waiting_list_keys k where k.id = w.id)) h
  where not exists (select from private.waiting_list_keys k where k.address_hash = h.address_hash)
  order by h.address_hash, h.id;
  get diagnostics keyed = row_count;
  set constraints private.waiting_list_email_key immediate;
  set constraints private.waiting_list_email_key deferred;
  if not exists (select from public.waiting_list w where w.email is not null) then
    return keyed;
  end if;
  select h.id, h.clear_key into hour_key_id, hour_clear_key from private.hour_key() h;
  if hour_key_id is null then
    select * into step_key from private.seal_key;
    if not found then
      return keyed;
    end if;
  end if;
  with plain as (
    select w.id, w.email from public.waiting_list w
    where w.email is not null and exists (select from private.waiting_list_keys k where k.id = w.id)
    for update of w),
  stored as (
    update private.waiting_list_keys k
    set step = step_key.step, key_id = hour_key_id,
        sealed = case when hour_key_id is not null then private.seal_with(hour_key_id, hour_clear_key, p.id, p.email)
                      else private.seal_address(step_key, p.id, p.email) end
    from plain p where k.id = p.id
    returning k.id)
  update public.waiting_list w set email = null from stored s where w.id = s.id;
  get diagnostics sealed = row_count;
  return keyed + sealed;
end;
$$;

-- What `waitlist count` and `health` report. scheme: 'hourly', 'ratchet' or null (not sealed);
-- stalled: a key in clear outlived its hour by over 5 minutes (hourly), or the ratchet has not
-- moved for 90 minutes.
drop function private.seal_status();
create function private.seal_status(
  out sealing boolean, out scheme text, out step integer, out advanced_at timestamptz, out stalled boolean,
  out plaintext bigint, out unkeyed bigint, out unreadable bigint)
  language sql stable
  set search_path = ''
  as $$
  select o.one_row is not null or k.step is not null,
         case when o.one_row is not null then 'hourly' when k.step is not null then 'ratchet' end,
         k.step,
         coalesce(k.advanced_at, (select min(h.hour) from (select hour from private.hour_key_0
                                                            union all select hour from private.hour_key_1
                                                            union all select hour from private.hour_key_2) h)),
         case when o.one_row is not null
              then private.seal_clock() > date_trunc('hour', private.seal_clock(), 'UTC') + interval '5 minutes'
                   and exists (select from (select hour from private.hour_key_0
                                            union all select hour from private.hour_key_1
                                            union all select hour from private.hour_key_2) h
                               where h.hour < date_trunc('hour', private.seal_clock(), 'UTC'))
              else coalesce(k.advanced_at < now() - interval '90 minutes', false) end,
         (select count(*) from public.waiting_list w where w.email is not null),
         (select count(*) from public.waiting_list w
          where not exists (select from private.waiting_list_keys h where h.id = w.id)),
         (select count(*) from public.waiting_list w left join private.waiting_list_keys h on h.id = w.id
          where w.email is null and h.sealed is null)
  from (select 1) one left join private.seal_key k on true left join private.owner_key o on true
$$;
comment on function private.seal_status() is
  'sealing: sealed at rest; scheme: hourly or ratchet; stalled: an old key still held in clear (hourly) or a ratchet '
  'that has not moved for 90 minutes; plaintext, unkeyed, unreadable: rows stored as typed, outside the duplicate '
  'check, with neither an address nor a seal.';

revoke all on function private.seal_clock() from public;
revoke all on function private.hour_key_table(timestamptz) from public;
revoke all on function private.hour_key() from public;
revoke all on function private.seal_with(bigint, bytea, bigint, text) from public;
revoke all on function private.retire_hour_keys() from public;
revoke all on function private.seal_status() from public;

-- mailable_signups carries the hourly key's id too (a new last column).
create or replace view private.mailable_signups with (security_invoker = true) as
  select w.id, w.email, k.step, k.sealed, w.created_at, k.key_id
  from public.waiting_list w
  left join private.waiting_list_keys k on k.id = w.id
  where w.id not in (
    select h.id
    from private.do_not_email d
    join private.waiting_list_keys h on h.address_hash = d.address_hash
    join public.waiting_list l on l.id = h.id
    where not (d.reason = 'erased' and l.created_at > d.added_at));

do $$
begin
  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('waitlist-seal-hour-keys', '* * * * *', 'select private.retire_hour_keys()');
  else
    raise warning 'pg_cron is not available: run "select private.retire_hour_keys()" every minute some other way, '
                  'or a past hour''s key stays in clear until its table''s turn comes again (waitlist health names it).';
  end if;
end;
$$;

reset lock_timeout;
reset statement_timeout;

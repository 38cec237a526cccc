-- Sealed at rest with hour keys (supabase/security.md, "Sealed at rest"). Before the owner runs
-- `npm run waitlist -- keys init` every address is stored as typed; afterwards none is:
-- * The owner's OpenPGP public key (RSA; pgcrypto takes no ECC) sits in private.owner_key. The
--   private key is made on the owner's machine and never enters the database.
-- * Each hour's first signup makes the hour key: 64 random bytes (an AES-256 key and an
--   HMAC-SHA256 key). In clear it lives only in an UNLOGGED table (never written to the WAL, so
--   never in a WAL archive, a base backup or a replica, and emptied by a crash), and only for its
--   hour. For the owner it is kept wrapped to the owner key (pgp_pub_encrypt_bytea) in
--   private.wrapped_hour_keys, in the same transaction as the first row sealed under it.
-- * One key is not made here: `keys init` seals the rows stored before it under a key made on the
--   owner's machine and wrapped there (openpgp.js), in the transaction that installs the owner key;
--   the database never holds that key in clear.
-- * Three unlogged tables take turns, one per hour (hour mod 3). A job each minute TRUNCATEs the
--   ones of past hours: TRUNCATE gives a table a new, empty file (DELETE would leave the key's bytes
--   in a dead row version, and VACUUM does not overwrite them), and its ACCESS EXCLUSIVE lock falls
--   on a table no signup of the current hour reads (taken with NOWAIT: a late signup of the hour
--   before makes the job try again a minute later).
-- * A key belongs to its hour: a signup takes only a key of the current hour (one restored from a
--   dump of an earlier hour is ignored) and, finding none, makes one itself. Signups never wait on
--   the owner or on the job.
-- * Each signup is sealed by a BEFORE trigger, before its row reaches the table (or the WAL): its
--   seal, iv ‖ AES-256-CBC(address) ‖ HMAC-SHA256(hour key id ‖ signup id ‖ iv ‖ ciphertext), goes
--   to private.signup_addresses and public.waiting_list.email stays null. Only the owner's command
--   opens seals, never SQL.
-- May run again over the previous chain once cleaned up: see 20261128100000_waiting_list.sql.

set lock_timeout = '5s';
set statement_timeout = '60s';

-- The owner key's public half, binary (what pgcrypto's dearmor() gives). Public: no secret here.
create table if not exists private.owner_key (
  one_row boolean primary key default true check (one_row),
  public_key bytea not null,
  installed_at timestamptz not null default now()
);
comment on table private.owner_key is
  'The owner''s OpenPGP public key (RSA), installed by `waitlist keys init`: each hour key is wrapped to it.';

-- Every hour key, wrapped: what the owner's commands unwrap to open seals.
create table if not exists private.wrapped_hour_keys (
  id bigint generated always as identity primary key,
  hour timestamptz not null,
  wrapped bytea not null,
  made_at timestamptz not null default now()
);
comment on table private.wrapped_hour_keys is
  'Each hour key, wrapped to the owner key''s public half; several in one hour when first signups race, after a '
  'crash, and for the key `keys init` made on the owner''s machine to seal the rows stored before it.';

-- The current hour's key in clear, in the table of its hour (hour mod 3). Unlogged: never in the
-- WAL. No statistics (ANALYZE would copy the key into pg_statistic, a logged catalog) and no check
-- constraint on the key (a failing row is written to the log).
create unlogged table if not exists private.hour_key_0 (
  id bigint primary key,
  hour timestamptz not null,
  clear_key bytea not null
) with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
create unlogged table if not exists private.hour_key_1 (like private.hour_key_0 including all)
  with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
create unlogged table if not exists private.hour_key_2 (like private.hour_key_0 including all)
  with (autovacuum_enabled = off, toast.autovacuum_enabled = off);
alter table private.hour_key_0 alter column clear_key set statistics 0;
alter table private.hour_key_1 alter column clear_key set statistics 0;
alter table private.hour_key_2 alter column clear_key set statistics 0;
comment on table private.hour_key_0 is 'The hour key in clear for hours ≡ 0 (mod 3); emptied once its hour is over.';
comment on table private.hour_key_1 is 'The hour key in clear for hours ≡ 1 (mod 3); emptied once its hour is over.';
comment on table private.hour_key_2 is 'The hour key in clear for hours ≡ 2 (mod 3); emptied once its hour is over.';

revoke all on table private.owner_key, private.wrapped_hour_keys, private.hour_key_0, private.hour_key_1,
  private.hour_key_2 from public, anon, authenticated, service_role;

-- The sealing clock: the hour a key belongs to. Tests replace it, as they do the guard's.
create or replace function private.seal_clock() returns timestamptz
  language sql stable
  set search_path = ''
  as $$ select now() $$;
revoke all on function private.seal_clock() from public;

create or replace function private.hour_key_table(hour timestamptz) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select 'hour_key_' || ((extract(epoch from hour)::bigint / 3600) % 3)::text $$;
revoke all on function private.hour_key_table(timestamptz) from public;

-- The current hour's key (id and clear key), made now if the hour has none yet; nulls before
-- keys init. Two signups that both find none make one each: both are wrapped, both open.
create or replace function private.hour_key(out id bigint, out clear_key bytea)
  language plpgsql
  set search_path = ''
  as $$
declare
  hour timestamptz := date_trunc('hour', private.seal_clock(), 'UTC');
  slot text := private.hour_key_table(hour);
  public_key bytea;
begin
  select o.public_key into public_key from private.owner_key o;
  if not found then
    return;
  end if;
  -- Only a key whose wrapped copy is still there: after the owner's keys were deleted (a fresh
  -- keys init), an earlier clear key of this hour would seal what nobody can open.
  execute format('select k.id, k.clear_key from private.%I k where k.hour = $1'
                 ' and exists (select from private.wrapped_hour_keys w where w.id = k.id) order by k.id desc limit 1', slot)
    into id, clear_key using hour;
  if id is not null then
    return;
  end if;
  clear_key := extensions.gen_random_bytes(64);
  insert into private.wrapped_hour_keys (hour, wrapped)
  values (hour, extensions.pgp_pub_encrypt_bytea(clear_key, public_key))
  returning wrapped_hour_keys.id into id;
  execute format('insert into private.%I (id, hour, clear_key) values ($1, $2, $3)', slot) using id, hour, clear_key;
end;
$$;
revoke all on function private.hour_key() from public;

-- A seal: the hour key's first 32 bytes for AES-256-CBC (random IV; pgcrypto's encrypt(…, 'aes')
-- would use a zero IV), its last 32 for HMAC-SHA256 over hour key id ‖ signup id ‖ iv ‖ ciphertext
-- (encrypt-then-MAC).
create or replace function private.seal_with(key_id bigint, clear_key bytea, id bigint, address text) returns bytea
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
revoke all on function private.seal_with(bigint, bytea, bigint, text) from public;

-- Checks one signup, stores its address hash and, once the owner key is installed, its seal (the
-- address column then stays null). Before keys init the address stays as typed; a signup is never
-- refused for want of a key.
create or replace function private.seal_signup() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  key_id bigint;
  clear_key bytea;
  sealed bytea;
begin
  perform private.check_address(new.email);
  select h.id, h.clear_key into key_id, clear_key from private.hour_key() h;
  if key_id is not null then
    sealed := private.seal_with(key_id, clear_key, new.id, new.email);
  end if;
  insert into private.signup_addresses (id, address_hash, seal, hour_key_id)
  values (new.id, private.address_hash(new.email), sealed, key_id)
  on conflict (id) do update
    set address_hash = excluded.address_hash, seal = excluded.seal, hour_key_id = excluded.hour_key_id;
  if sealed is not null then
    new.email := null;
  end if;
  return new;
end;
$$;
revoke all on function private.seal_signup() from public;

-- After the guard's triggers (triggers of one kind fire in name order).
create or replace trigger seal_new_signups
  before insert on public.waiting_list
  for each row
  execute function private.seal_signup();

create or replace trigger seal_changed_signups
  before update of email on public.waiting_list
  for each row
  when (new.email is not null)
  execute function private.seal_signup();

-- Rows that came in with triggers off (session_replication_role = replica, a data-only restore),
-- and every row stored as typed when keys init runs: hashed, then sealed with the hour key. A
-- second row of an address already listed stays unhashed and as typed, named by seal_status()
-- until the owner deletes it.
create or replace function private.seal_pending() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  key_id bigint;
  clear_key bytea;
  hashed integer;
  sealed integer := 0;
begin
  -- The first row of each address not listed yet (no ON CONFLICT: the unique key is deferrable).
  insert into private.signup_addresses (id, address_hash)
  select distinct on (h.address_hash) h.id, h.address_hash
  from (select w.id, private.address_hash(w.email) as address_hash from public.waiting_list w
        where w.email is not null and not exists (select from private.signup_addresses a where a.id = w.id)) h
  where not exists (select from private.signup_addresses a where a.address_hash = h.address_hash)
  order by h.address_hash, h.id;
  get diagnostics hashed = row_count;
  set constraints private.waiting_list_email_key immediate;
  set constraints private.waiting_list_email_key deferred;
  if not exists (select from public.waiting_list w where w.email is not null) then
    return hashed;
  end if;
  select h.id, h.clear_key into key_id, clear_key from private.hour_key() h;
  if key_id is null then
    return hashed; -- before keys init
  end if;
  with plain as (
    select w.id, w.email from public.waiting_list w
    where w.email is not null and exists (select from private.signup_addresses a where a.id = w.id)
    for update of w),
  stored as (
    update private.signup_addresses a
    set hour_key_id = key_id, seal = private.seal_with(key_id, clear_key, p.id, p.email)
    from plain p where a.id = p.id
    returning a.id)
  update public.waiting_list w set email = null from stored s where w.id = s.id;
  get diagnostics sealed = row_count;
  return hashed + sealed;
end;
$$;
comment on function private.seal_pending() is
  'Hashes rows that arrived with triggers off and, once the owner key is installed, seals every hashed row stored '
  'as typed (a row repeating a listed address stays unhashed: the owner''s commands name it); returns how many it changed.';
revoke all on function private.seal_pending() from public;

-- Empties the tables of past hours. Run each minute by pg_cron; returns how many it emptied.
create or replace function private.retire_hour_keys() returns integer
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
revoke all on function private.retire_hour_keys() from public;

-- What `waitlist count` and `waitlist health` report.
create or replace function private.seal_status(
  out sealing boolean, out stalled boolean, out plaintext bigint, out unhashed bigint, out unreadable bigint)
  language sql stable
  set search_path = ''
  as $$
  select exists (select from private.owner_key),
         private.seal_clock() > date_trunc('hour', private.seal_clock(), 'UTC') + interval '5 minutes'
           and exists (select from (select hour from private.hour_key_0
                                    union all select hour from private.hour_key_1
                                    union all select hour from private.hour_key_2) h
                       where h.hour < date_trunc('hour', private.seal_clock(), 'UTC')),
         (select count(*) from public.waiting_list w where w.email is not null),
         (select count(*) from public.waiting_list w
          where not exists (select from private.signup_addresses a where a.id = w.id)),
         (select count(*) from public.waiting_list w left join private.signup_addresses a on a.id = w.id
          where w.email is null and a.seal is null)
$$;
comment on function private.seal_status() is
  'sealing: the owner key is installed; stalled: a past hour''s key is still held in clear 5 minutes into the hour '
  '(the minute job failed or is missing); plaintext, unhashed, unreadable: rows stored as typed, outside the '
  'duplicate check, with neither an address nor a seal.';
revoke all on function private.seal_status() from public;

-- Each minute, past hours' keys go; each hour, rows that arrived with triggers off are sealed.
do $$
begin
  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('waitlist-seal-hour-keys', '* * * * *', 'select private.retire_hour_keys()');
    perform cron.schedule('waitlist-seal-pending', '5 * * * *', 'select private.seal_pending()');
  else
    raise warning 'pg_cron is not available: run "select private.retire_hour_keys()" every minute and '
                  '"select private.seal_pending()" hourly some other way, or a past hour''s key stays in clear '
                  'until its table''s turn comes again (waitlist health names it).';
  end if;
end;
$$;

reset lock_timeout;
reset statement_timeout;

-- The abuse guard: which requests may sign up, and how many per client network, counted by the
-- database. supabase/security.md explains each part and its limits.
--
-- * A browser request from another website's page (Origin not in private.allowed_origins) and a
--   request asking for Prefer: tx=... are refused before anything is counted.
-- * Limits are rows of private.signup_limits, not code: the owner changes one with one UPDATE,
--   effective on the next signup (supabase/security.md lists them and why).
-- * What is kept is a counter per network per slot (10-minute slot, UTC day), the network
--   keyed by SHA-256 with a random secret of the day: no row per signup, no address, no
--   time finer than the slot, days in UTC whatever the request's time zone. A pg_cron job
--   deletes counters and secrets once their slot is over.
-- * Duplicate attempts cost quota too, kept in sequences, which a rollback cannot undo.
-- * A counter is one row updated by INSERT ... ON CONFLICT DO UPDATE: under READ COMMITTED
--   concurrent signups wait for each other's row lock and see each other's increments; under
--   REPEATABLE READ or SERIALIZABLE a concurrent increment makes the statement fail with a
--   serialization error (40001) instead of being missed.
-- * It runs as row triggers, not as PostgREST's db_pre_request: that runs once per HTTP request
--   and cannot see the body, and it would take the project's single pre-request slot.
-- * The public roles add one row per request, so an array cannot probe the list (a second row
--   is refused with PostgREST's 400 "PT400" before its own checks run).

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

create table private.signup_limits (
  scope text primary key,
  per_10_minutes integer not null check (per_10_minutes >= 0),
  per_day integer not null check (per_day >= 0),
  applies_to text not null
);
comment on table private.signup_limits is
  'Signups admitted per network. Change one with e.g. '
  'update private.signup_limits set per_10_minutes = 300 where scope = ''ipv4''; effective on the next signup.';
comment on column private.signup_limits.per_10_minutes is
  'Signups per network per 10-minute slot (slots start at :00, :10, ... UTC).';
comment on column private.signup_limits.per_day is 'Signups per network per UTC day.';

insert into private.signup_limits (scope, per_10_minutes, per_day, applies_to) values
  ('ipv4', 200, 1000, 'each IPv4 address; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as a.b.c.d'),
  ('ipv6/64', 200, 1000, 'each IPv6 /64, what one subscriber line gets'),
  -- ISPs hand subscribers /56s or /60s out of shared /48s (256 to 4,096 per /48): 16 times the
  -- /64 limit lets 16 neighbours each use a whole subscriber's limit at once, and still stops one
  -- /48 far below the 'all' cap.
  ('ipv6/48', 3200, 16000, 'each IPv6 /48, what one site or ISP block routes; applies together with ipv6/64'),
  ('unknown', 10000, 1440000, 'all requests without a usable cf-connecting-ip, together: protects the database only'),
  ('all', 30000, 100000, 'every signup and duplicate of the public roles, together: the storage the free plan can hold');

-- The site's own origins. A browser request whose Origin header is not one of them is refused
-- (another website making its visitors' browsers sign up); while the table is empty every origin
-- is allowed, so a fresh database works before the owner sets it. No Origin (a server, curl):
-- the limits alone judge it.
create table private.allowed_origins (
  origin text primary key,
  -- As a browser sends it: scheme://host[:port], lower case, no path or trailing slash.
  constraint allowed_origins_shape check (origin ~ '^[a-z][a-z0-9+.-]*://[^/?#[:space:]]+$' and origin = lower(origin))
);
comment on table private.allowed_origins is
  'Origins whose pages may sign up, e.g. insert into private.allowed_origins values (''https://example.com''); '
  'empty: every origin.';

-- One random secret per UTC day keys that day's network hashes; deleted with the day's counters.
create table private.signup_secrets (
  day_start timestamptz primary key,
  day_end timestamptz not null,
  secret bytea not null
);
comment on table private.signup_secrets is
  'The random key of each UTC day''s network hashes. Deleted when the day is over, with its counters.';

create table private.signup_counts (
  network bytea not null,
  slot_start timestamptz not null,
  slot_end timestamptz not null,
  signups integer not null,
  primary key (network, slot_start, slot_end)
);
create index signup_counts_expiry_idx on private.signup_counts (slot_end);
comment on table private.signup_counts is
  'Signups per network per slot. network = sha256(secret of the day || network text); no address, '
  'no time finer than the slot. Deleted by private.forget_expired_signups() once slot_end has passed.';

-- One header of the current API request (PostgREST sets request.headers, names in lower case);
-- null when absent or when the setting is missing or unreadable. (Since
-- 20261125100000_last_openings.sql unreadable headers refuse the request, and limit_signups looks
-- the address up only after the limits.)
create function private.request_header(name text) returns text
  language plpgsql stable
  set search_path = ''
  as $$
begin
  return nullif(current_setting('request.headers', true), '')::json ->> name;
exception when others then
  return null;
end;
$$;
revoke all on function private.request_header(text) from public;

-- The client's networks, broadest first, from the one header a client cannot forge on Supabase:
-- cf-connecting-ip, which Cloudflare sets to the address that opened the connection (see
-- supabase/security.md for the sources). x-forwarded-for and x-real-ip are never read. No header,
-- an empty one or one that is not exactly an address: the shared 'unknown' bucket.
create function private.client_networks(out scope text, out network text)
  returns setof record
  language plpgsql stable
  set search_path = ''
  as $$
declare
  address inet;
begin
  begin
    address := btrim(private.request_header('cf-connecting-ip'))::inet;
  exception when others then
    address := null;
  end;

  if address is null then
    scope := 'unknown'; network := 'unknown'; return next;
    return;
  end if;

  address := host(address)::inet; -- drop any mask the value carried
  -- IPv4-mapped IPv6 (::ffff:a.b.c.d) is an IPv4 client: count it as that address.
  if family(address) = 6 and address <<= inet '::ffff:0:0/96' then
    address := inet '0.0.0.0' + (address - inet '::ffff:0.0.0.0');
  end if;

  if family(address) = 4 then
    scope := 'ipv4'; network := network(set_masklen(address, 32))::text; return next;
  else
    scope := 'ipv6/48'; network := network(set_masklen(address, 48))::text; return next;
    scope := 'ipv6/64'; network := network(set_masklen(address, 64))::text; return next;
  end if;
end;
$$;
comment on function private.client_networks() is
  'The networks the current request counts against, from cf-connecting-ip; ''unknown'' without a usable one.';

-- The guard's clock: the request's transaction time. Tests replace it (as the owner, with
-- create or replace) to walk through slots and days without waiting.
create function private.signup_clock() returns timestamptz
  language sql stable
  set search_path = ''
  as $$ select now() $$;

-- A UTC day's secret, prepared ahead by the upkeep job, else created by the first request needing it.
create function private.signup_secret(day_start timestamptz) returns bytea
  language plpgsql
  set search_path = ''
  as $$
declare
  found_secret bytea;
begin
  select s.secret into found_secret from private.signup_secrets s where s.day_start = signup_secret.day_start;
  if found_secret is null then
    insert into private.signup_secrets (day_start, day_end, secret)
    values (day_start, day_start + interval '24 hours',
            uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
    on conflict do nothing;
    select s.secret into found_secret from private.signup_secrets s where s.day_start = signup_secret.day_start;
  end if;
  return found_secret;
end;
$$;

-- The key a network is counted under today. Also lets the owner look up one address:
-- select * from private.signup_counts where network = private.network_key('203.0.113.7/32');
create function private.network_key(network text, at timestamptz default private.signup_clock()) returns bytea
  language sql
  set search_path = ''
  as $$
  select sha256(private.signup_secret(date_trunc('day', at, 'UTC'))
                || convert_to(network, 'UTF8'))
$$;

-- Adds one signup to a network's slot and returns the slot's new count. The row lock taken by
-- ON CONFLICT DO UPDATE serialises concurrent signups of one network.
create function private.count_signup(network bytea, slot_start timestamptz, slot_end timestamptz)
  returns integer
  language plpgsql -- not sql: PL/pgSQL keeps its plans, a SQL function with SET plans every call
  set search_path = ''
  as $$
declare
  signups integer;
begin
  insert into private.signup_counts as c (network, slot_start, slot_end, signups)
  values (network, slot_start, slot_end, 1)
  on conflict on constraint signup_counts_pkey do update set signups = c.signups + 1
  returning c.signups into signups;
  return signups;
end;
$$;

-- PostgREST's custom error (RAISE SQLSTATE 'PGRST'): the message is the JSON body, the detail
-- the HTTP status. Raising rolls the whole request back.
create function private.refuse_request(status integer, status_text text, code text, message text, hint text default null)
  returns void
  language plpgsql
  set search_path = ''
  as $$
begin
  raise sqlstate 'PGRST' using
    message = json_build_object('code', code, 'message', message, 'details', null, 'hint', hint)::text,
    detail = json_build_object('status', status, 'status_text', status_text, 'headers', json_build_object())::text;
end;
$$;

-- The 'all' scope is counted in 16 shards (by connection), summed: one hot row would make every
-- concurrent signup wait for the previous one's commit. Concurrent requests on other connections
-- may each see the sum without the other's increment: the cap can be passed by at most the
-- number of requests in flight, which is fine for a storage cap.
create function private.count_all(secret bytea, slot_start timestamptz, slot_end timestamptz) returns bigint
  language plpgsql
  set search_path = ''
  as $$
declare
  shards bytea[] := array(select sha256(secret || convert_to('all/' || shard, 'UTF8')) from generate_series(0, 15) shard);
begin
  perform private.count_signup(shards[pg_backend_pid() % 16 + 1], slot_start, slot_end);
  return (select sum(c.signups) from private.signup_counts c
          where c.network = any (shards) and c.slot_start = count_all.slot_start and c.slot_end = count_all.slot_end);
end;
$$;

-- Whether the request's Origin header, if any, is one of the site's (see private.allowed_origins).
create function private.origin_allowed() returns boolean
  language plpgsql stable
  set search_path = ''
  as $$
declare
  request_origin text := private.request_header('origin');
begin
  return request_origin is null
    or not exists (select from private.allowed_origins)
    or exists (select from private.allowed_origins a where a.origin = request_origin);
end;
$$;

-- Duplicate attempts cost quota too. A duplicate is refused (409, 23505) at the end of the
-- statement, which rolls the whole request back, its counter increments included: counted like a
-- signup it would be free, and a network could ask about listed addresses without limit.
-- Sequences are the one thing a rollback cannot undo (setval and nextval are never rolled back),
-- so each duplicate is also recorded in sequences used as a small hash table: per window kind
-- ('slot', 'day') 128 of them, one entry each, keyed by the network's hash of the day:
--   value = fingerprint (30 bits of the hash) << 33 | window number (17 bits) << 16 | count (16 bits).
-- An entry of an earlier window is free for reuse; a network looks at 8 entries from its own.
-- When more networks ask in one window than the table holds, the newcomers' duplicates are not
-- counted per network: all duplicates together are always counted (one sequence per window kind,
-- value = window number << 32 | count) against the 'all' scope's limits.
-- Nothing personal: the hash's secret is deleted with its day.
do $$
begin
  for entry in 0..127 loop
    execute format('create sequence private.signup_duplicates_slot_%s as bigint', entry);
    execute format('create sequence private.signup_duplicates_day_%s as bigint', entry);
  end loop;
end;
$$;
create sequence private.signup_duplicates_all_slot as bigint;
create sequence private.signup_duplicates_all_day as bigint;

-- A network's duplicates in a window; with record, one more first (0 when the table is full).
create function private.count_duplicate(network bytea, kind text, window_start timestamptz, window_length interval, record boolean)
  returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  fingerprint bigint := (get_byte(network, 0)::bigint << 22) | (get_byte(network, 1) << 14)
                        | (get_byte(network, 2) << 6) | (get_byte(network, 3) >> 2);
  window_number bigint := (extract(epoch from window_start)::bigint / extract(epoch from window_length)::bigint) % 131072;
  chosen record;
begin
  -- The network's own entry among its 8, else (to record) the first free one.
  select e.entry, e.value, e.value >> 33 = fingerprint and (e.value >> 16) & 131071 = window_number as own
  into chosen
  from generate_series(0, 7) probe,
       lateral (select format('private.signup_duplicates_%s_%s', kind, (get_byte(network, 4) + probe) % 128)::regclass) s(entry),
       -- offset 0: read each sequence once, not once per mention of value
       lateral (select s.entry, coalesce(pg_catalog.pg_sequence_last_value(s.entry), 0) as value offset 0) e
  where (e.value >> 33 = fingerprint and (e.value >> 16) & 131071 = window_number)
     or (record and (e.value = 0 or (e.value >> 16) & 131071 <> window_number))
  order by 3 desc, probe
  limit 1;
  if chosen is null or not record and not chosen.own then
    return 0; -- nothing recorded, or no room: counted in 'all' only
  elsif not record then
    return chosen.value & 65535;
  elsif chosen.own then
    perform pg_catalog.setval(chosen.entry, (chosen.value & ~65535::bigint) | least((chosen.value & 65535) + 1, 65535));
    return least((chosen.value & 65535) + 1, 65535);
  end if;
  perform pg_catalog.setval(chosen.entry, (fingerprint << 33) | (window_number << 16) | 1);
  return 1;
end;
$$;

-- All networks' duplicates in a window; with record, one more first.
create function private.count_all_duplicates(kind text, window_start timestamptz, window_length interval, record boolean)
  returns bigint
  language plpgsql
  set search_path = ''
  as $$
declare
  entry regclass := format('private.signup_duplicates_all_%s', kind)::regclass;
  window_number bigint := extract(epoch from window_start)::bigint / extract(epoch from window_length)::bigint;
  value bigint := coalesce(pg_catalog.pg_sequence_last_value(entry), 0);
  duplicates bigint := case when value >> 32 = window_number then value & 4294967295 else 0 end;
begin
  if record then
    duplicates := duplicates + 1;
    perform pg_catalog.setval(entry, (window_number << 32) | duplicates);
  end if;
  return duplicates;
end;
$$;

create function private.limit_signups() returns trigger
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
  duplicate boolean := exists (select from private.waiting_list_keys k where k.email_key = private.email_key(new.email));
  too_many constant text := 'Too many signups from this network. Try again in a few minutes.';
begin
  -- Prefer: tx=rollback would let a request learn its answer and leave no count (hosted
  -- PostgREST ignores tx=, but the guard does not rely on that).
  if coalesce(private.request_header('prefer'), '') ~* '(^|[,;[:space:]])tx[[:space:]]*=' then
    perform private.refuse_request(400, 'Bad Request', 'PT400', 'Transaction preferences are not accepted.', 'Send no tx= in Prefer.');
  end if;
  if not private.origin_allowed() then
    perform private.refuse_request(403, 'Forbidden', 'PT403', 'Signups are accepted from this site''s own pages only.');
  end if;
  -- Broadest network first, 10-minute slot before the day, 'all' last: every request takes its
  -- row locks in the same order, so concurrent signups cannot deadlock.
  if duplicate then
    -- Duplicate attempts update the sequences one at a time.
    perform pg_advisory_xact_lock(hashtext('waitlist duplicates'));
  end if;
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
  -- Admitted as far as the limits go. A duplicate keeps its count past the coming rollback.
  if duplicate and secret_is_new then
    perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
  end if;
  if duplicate then
    perform private.count_all_duplicates('slot', slot_start, interval '10 minutes', true),
            private.count_all_duplicates('day', day_start, interval '24 hours', true);
    foreach key in array keys loop
      perform private.count_duplicate(key, 'slot', slot_start, interval '10 minutes', true),
              private.count_duplicate(key, 'day', day_start, interval '24 hours', true);
    end loop;
  end if;
  return new;
end;
$$;
comment on function private.limit_signups() is
  'Refuses a signup of the public roles from a foreign Origin (HTTP 403), or once one of its networks or all '
  'together are over private.signup_limits (HTTP 429).';

-- Personal data is kept no longer than the slot it counts: run every minute by pg_cron.
create function private.forget_expired_signups() returns integer
  language sql
  set search_path = ''
  as $$
  with counts as (delete from private.signup_counts where slot_end <= now() returning 1),
       secrets as (delete from private.signup_secrets where day_end <= now() returning 1)
  select (select count(*) from counts)::integer + (select count(*) from secrets)::integer
$$;

-- Today's and tomorrow's secrets, committed before any request needs them: a request that had to
-- create its day's secret cannot keep a duplicate's count (its rollback would take the secret).
create function private.prepare_signup_secrets() returns void
  language sql
  set search_path = ''
  as $$
  select private.signup_secret(date_trunc('day', now(), 'UTC') + d * interval '24 hours') from generate_series(0, 1) d
$$;
select private.prepare_signup_secrets();
comment on function private.forget_expired_signups() is
  'Deletes counters whose slot is over and secrets whose day is over; returns how many rows went.';

revoke all on function private.client_networks() from public;
revoke all on function private.signup_secret(timestamptz) from public;
revoke all on function private.network_key(text, timestamptz) from public;
revoke all on function private.count_signup(bytea, timestamptz, timestamptz) from public;
revoke all on function private.refuse_request(integer, text, text, text, text) from public;
revoke all on function private.count_all(bytea, timestamptz, timestamptz) from public;
revoke all on function private.origin_allowed() from public;
revoke all on function private.count_duplicate(bytea, text, timestamptz, interval, boolean) from public;
revoke all on function private.count_all_duplicates(text, timestamptz, interval, boolean) from public;
revoke all on function private.signup_clock() from public;
revoke all on function private.limit_signups() from public;
revoke all on function private.forget_expired_signups() from public;
revoke all on function private.prepare_signup_secrets() from public;

-- Only the API's public roles are limited; the owner, seeds and service_role are not.
create trigger limit_signups
  before insert on public.waiting_list
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function private.limit_signups();

create function private.limit_rows_per_request() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  -- Transaction-local: PostgREST runs each request in its own transaction.
  if coalesce(current_setting('waitlist.signup_rows', true), '') <> '' then
    perform private.refuse_request(400, 'Bad Request', 'PT400', 'One signup per request.', 'Send one object, not an array.');
  end if;
  perform set_config('waitlist.signup_rows', '1', true);
  return new;
end;
$$;
revoke all on function private.limit_rows_per_request() from public;
comment on function private.limit_rows_per_request() is
  'Refuses a second row in one request of the public roles (HTTP 400, PT400).';

-- Fires before limit_signups (triggers fire in name order), so a refused batch is never counted.
create trigger limit_rows_per_request
  before insert on public.waiting_list
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function private.limit_rows_per_request();

-- The schedule. On Supabase, `create extension pg_cron with schema pg_catalog` (as its docs do) is allowed to the
-- migration role; elsewhere pg_cron may be missing or not loaded (shared_preload_libraries),
-- and the migration still applies: it then warns that nothing deletes expired counters.
do $$
begin
  if not exists (select from pg_extension where extname = 'pg_cron')
     and exists (select from pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
    exception when others then
      raise notice 'pg_cron could not be enabled here: %', sqlerrm;
    end;
  end if;

  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('waitlist-signup-guard-upkeep', '* * * * *',
                          'select private.forget_expired_signups(), private.prepare_signup_secrets()');
    -- pg_cron logs every run in cron.job_run_details (1,440 rows a day for the job above) and
    -- deletes none: keep a day of our jobs' history.
    perform cron.schedule('waitlist-purge-job-history', '30 3 * * *',
      $job$delete from cron.job_run_details where jobid in (select jobid from cron.job where jobname like 'waitlist-%') and end_time < now() - interval '1 day'$job$);
  else
    raise warning 'pg_cron is not available: schedule "select private.forget_expired_signups(), '
                  'private.prepare_signup_secrets()" every minute some other way, or expired signup '
                  'counters are never deleted and duplicates are refused (429) on a day without a signup.';
  end if;
end;
$$;

reset lock_timeout;
reset statement_timeout;

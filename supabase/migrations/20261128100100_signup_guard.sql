-- The abuse guard: which requests may sign up, and how many per client network, counted by the
-- database (supabase/security.md explains each part and its limits). In the order a signup of the
-- public roles meets it:
-- * One row per request (limit_rows_per_request): a second row is refused (400 PT400) before its
--   own checks run, so an array cannot probe the list.
-- * Unreadable request headers and Prefer: tx=... are refused (400 PT400); a browser request from
--   another site's page (Origin not in private.allowed_origins) too (403 PT403).
-- * Every limit is compared without writing (429 PT429). Limits are rows of private.signup_limits,
--   changed with one UPDATE. Counts are kept per network (keyed by SHA-256 with a random secret of
--   the UTC day) per 10-minute slot and per UTC day: no address, no time finer than the slot; the
--   upkeep job deletes them once their slot is over.
-- * The address is checked (400, 23502 / 23514 with the table's own constraint names).
-- * Only then is the address looked up and the counts written. A duplicate is refused at the end of
--   the statement (409, 23505), which rolls the counts back: its count is kept in sequences instead,
--   which a rollback cannot undo.
-- It runs as row triggers, not as PostgREST's db_pre_request: that runs once per HTTP request,
-- cannot see the body, and would take the project's single pre-request slot.
-- May run again over the previous chain once cleaned up: see 20261128100000_waiting_list.sql.

set lock_timeout = '5s';
set statement_timeout = '60s';

create table if not exists private.signup_limits (
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
  ('all', 30000, 100000, 'every signup of the public roles, together (duplicates count per network only): the storage the free plan can hold')
on conflict (scope) do nothing;

-- The site's own origins. A browser request whose Origin header is not one of them is refused
-- (another website making its visitors' browsers sign up); while the table is empty every origin
-- is allowed, so a fresh database works before the owner sets it. No Origin (a server, curl): the
-- limits alone judge it.
create table if not exists private.allowed_origins (
  origin text primary key,
  -- As a browser sends it: scheme://host[:port], lower case, no path or trailing slash.
  constraint allowed_origins_shape check (origin ~ '^[a-z][a-z0-9+.-]*://[^/?#[:space:]]+$' and origin = lower(origin))
);
comment on table private.allowed_origins is
  'Origins whose pages may sign up, e.g. insert into private.allowed_origins values (''https://example.com''); '
  'empty: every origin.';

-- What is wrong with an origin a browser would never send, naming the form to store; null if none.
-- Browsers send a host in ASCII (an internationalized name in its xn-- form) and leave out the
-- scheme's default port (WHATWG URL, "origin"). The shape itself is checked by allowed_origins_shape.
create or replace function private.origin_problem(origin text) returns text
  language sql immutable
  set search_path = ''
  as $$
  select case
    when origin ~ '[^\x01-\x7f]' then
      format('%L has a non-ASCII host; browsers send it in its xn-- (Punycode) form, e.g. '
             '''https://xn--bcher-kva.example'' for ''https://bücher.example''. Print the form to store with: '
             'node -p "new URL(''%s'').origin"', origin, origin)
    when origin ~ '^https://.+:443$' or origin ~ '^http://.+:80$' then
      format('%L names the default port, which browsers leave out: store %L.',
             origin, regexp_replace(origin, ':(443|80)$', ''))
  end
$$;
revoke all on function private.origin_problem(text) from public;

create or replace function private.check_allowed_origin() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  problem text := private.origin_problem(new.origin);
begin
  if problem is not null then
    raise exception using errcode = 'check_violation', message = problem,
      constraint = 'allowed_origins_as_browsers_send', table = 'allowed_origins', schema = 'private';
  end if;
  return new;
end;
$$;
revoke all on function private.check_allowed_origin() from public;

create or replace trigger check_allowed_origin
  before insert or update on private.allowed_origins
  for each row
  execute function private.check_allowed_origin();

-- One random secret per UTC day keys that day's network hashes; deleted with the day's counters.
create table if not exists private.signup_secrets (
  day_start timestamptz primary key,
  day_end timestamptz not null,
  secret bytea not null
);
comment on table private.signup_secrets is
  'The random secret (48 bytes) of each UTC day''s network hashes. Deleted when the day is over, with its counters.';
alter table private.signup_secrets alter column secret set statistics 0;

create table if not exists private.signup_counts (
  network bytea not null,
  slot_start timestamptz not null,
  slot_end timestamptz not null,
  signups integer not null,
  primary key (network, slot_start, slot_end)
);
create index if not exists signup_counts_expiry_idx on private.signup_counts (slot_end);
comment on table private.signup_counts is
  'Signups per network per slot. network = HMAC-SHA256(secret of the day, network text); no address, '
  'no time finer than the slot. Deleted by private.forget_expired_signups() once slot_end has passed.';

-- The current API request's headers (PostgREST sets request.headers, names in lower case); null
-- outside an API request. Set but unreadable (an escaped NUL, "\u0000", makes every ->> on them
-- fail): the request is refused, never read as having no headers, which would skip the Origin
-- check and count it in 'unknown'.
create or replace function private.request_headers() returns jsonb
  language plpgsql stable
  set search_path = ''
  as $$
declare
  raw text := nullif(current_setting('request.headers', true), '');
begin
  if raw is null then
    return null;
  end if;
  begin
    return raw::jsonb;
  exception when others then
    null; -- refused below, outside this block, so nothing can swallow the refusal
  end;
  perform private.refuse_request(400, 'Bad Request', 'PT400', 'The request''s headers could not be read.',
                                 'Send no NUL (\u0000) in any header.');
  return null;
end;
$$;
revoke all on function private.request_headers() from public;

create or replace function private.request_header(name text) returns text
  language sql stable
  set search_path = ''
  as $$ select private.request_headers() ->> name $$;
comment on function private.request_header(text) is
  'One header of the current API request, null when absent; refuses the request (400 PT400) when the headers cannot be read.';
revoke all on function private.request_header(text) from public;

-- The client's networks, broadest first, from the one header a client cannot forge on Supabase:
-- cf-connecting-ip, which Cloudflare sets to the address that opened the connection (see
-- supabase/security.md for the sources). x-forwarded-for and x-real-ip are never read. No header,
-- an empty one or one that is not exactly an address: the shared 'unknown' bucket.
create or replace function private.client_networks(out scope text, out network text)
  returns setof record
  language plpgsql stable
  set search_path = ''
  as $$
declare
  header text := btrim(private.request_header('cf-connecting-ip'));
  address inet;
begin
  begin
    address := header::inet;
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
revoke all on function private.client_networks() from public;

-- The guard's clock: the request's transaction time. Tests replace it (as the owner, with
-- create or replace) to walk through slots and days without waiting.
create or replace function private.signup_clock() returns timestamptz
  language sql stable
  set search_path = ''
  as $$ select now() $$;
revoke all on function private.signup_clock() from public;

-- A UTC day's secret, prepared ahead by the upkeep job, else created by the first request needing it.
create or replace function private.signup_secret(day_start timestamptz) returns bytea
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
            extensions.gen_random_bytes(48))
    on conflict do nothing;
    select s.secret into found_secret from private.signup_secrets s where s.day_start = signup_secret.day_start;
  end if;
  return found_secret;
end;
$$;
revoke all on function private.signup_secret(timestamptz) from public;

-- The network hash a network is counted under today. Also lets the owner look up one address:
-- select * from private.signup_counts where network = private.network_hash('203.0.113.7/32');
create or replace function private.network_hash(network text, at timestamptz default private.signup_clock()) returns bytea
  language sql
  set search_path = ''
  as $$
  select extensions.hmac(convert_to(network, 'UTF8'), private.signup_secret(date_trunc('day', at, 'UTC')), 'sha256')
$$;
revoke all on function private.network_hash(text, timestamptz) from public;

-- Adds one signup to a network's slot and returns the slot's new count. The row lock taken by
-- ON CONFLICT DO UPDATE serialises concurrent signups of one network.
create or replace function private.count_signup(network bytea, slot_start timestamptz, slot_end timestamptz)
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
revoke all on function private.count_signup(bytea, timestamptz, timestamptz) from public;

-- Signups counted for a network (or the 'all' shards) in the 10-minute slot and the day, read
-- without writing. PL/pgSQL, not SQL: it keeps its plan (a SQL function with SET plans every call).
create or replace function private.counted_signups(networks bytea[], slot_start timestamptz, day_start timestamptz,
                                                   out in_slot bigint, out in_day bigint)
  language plpgsql stable
  set search_path = ''
  as $$
begin
  select coalesce(sum(c.signups) filter (where c.slot_start = counted_signups.slot_start), 0),
         coalesce(sum(c.signups) filter (where c.slot_start = counted_signups.day_start), 0)
  into in_slot, in_day
  from private.signup_counts c
  where c.network = any (networks)
    and (c.slot_start, c.slot_end) in ((counted_signups.slot_start, counted_signups.slot_start + interval '10 minutes'),
                                       (counted_signups.day_start, counted_signups.day_start + interval '24 hours'));
end;
$$;
revoke all on function private.counted_signups(bytea[], timestamptz, timestamptz) from public;

-- PostgREST's custom error (RAISE SQLSTATE 'PGRST'): the message is the JSON body, the detail
-- the HTTP status. Raising rolls the whole request back.
create or replace function private.refuse_request(status integer, status_text text, code text, message text, hint text default null)
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
revoke all on function private.refuse_request(integer, text, text, text, text) from public;

-- Whether the request's Origin header, if any, is one of the site's (see private.allowed_origins).
create or replace function private.origin_allowed() returns boolean
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
revoke all on function private.origin_allowed() from public;

-- Duplicates cost quota too, or a network could ask about listed addresses for free. Sequences are
-- the one thing a rollback cannot undo (setval is never rolled back), so a network's duplicates are
-- counted in sequences used as small hash tables, one entry per sequence:
-- * IPv4 addresses, IPv6 /48s and 'unknown': 512 entries per window kind
--   (signup_duplicates_networks_{slot,day}_0…511);
-- * IPv6 /64s: 128 entries per window kind (signup_duplicates_{slot,day}_0…127); a /64 that finds
--   none of its 8 free is counted in its /48's shared entry ('/64s of <the /48>') in the networks
--   table, limited like one /64: filling the /64 table from one /48 costs that /48's neighbours only;
-- * a network that finds none of its 8 free in the networks table is counted, with every other
--   network in that position, in one shared counter (signup_duplicates_overflow_{slot,day}),
--   limited like a single network of its scope: those fail closed for themselves, never for a
--   network with an entry of its own.
-- Duplicates never spend the 'all' budget, which protects storage (a duplicate adds no row).
-- Nothing personal: the hashes' secret is deleted with its day.
do $$
begin
  for entry in 0..127 loop
    execute format('create sequence if not exists private.signup_duplicates_slot_%s as bigint', entry);
    execute format('create sequence if not exists private.signup_duplicates_day_%s as bigint', entry);
  end loop;
  for entry in 0..511 loop
    execute format('create sequence if not exists private.signup_duplicates_networks_slot_%s as bigint', entry);
    execute format('create sequence if not exists private.signup_duplicates_networks_day_%s as bigint', entry);
  end loop;
end;
$$;
-- value = window number << 32 | count.
create sequence if not exists private.signup_duplicates_overflow_slot as bigint;
create sequence if not exists private.signup_duplicates_overflow_day as bigint;
revoke all on all sequences in schema private from public, anon, authenticated, service_role;

-- A network's duplicates in a window (kind 'slot' or 'day'); with record, one more first. `network`
-- is its hash of the day, `of` the table it is counted in ('lines': /64s, 'networks': the rest),
-- `fallback` where a full 'lines' entry set sends it (its /48's shared entry). Entries:
--   fingerprint (30 bits of the hash) << 33 | window number (17 bits) << 16 | count (16 bits);
-- an entry of an earlier window is free. The 8 probed entries come from 8 different 16-bit slices of
-- the hash. Callers that record hold the advisory lock 'waitlist duplicates'.
create or replace function private.network_duplicates(network bytea, fallback bytea, of text, kind text,
                                                      window_start timestamptz, window_length interval, record boolean)
  returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  fingerprint bigint := (get_byte(network, 0)::bigint << 22) | (get_byte(network, 1) << 14)
                        | (get_byte(network, 2) << 6) | (get_byte(network, 3) >> 2);
  window_number bigint := extract(epoch from window_start)::bigint / extract(epoch from window_length)::bigint;
  window_bits bigint := window_number % 131072;
  size integer := case of when 'lines' then 128 else 512 end;
  prefix text := case of when 'lines' then 'private.signup_duplicates_' else 'private.signup_duplicates_networks_' end;
  chosen record;
  overflow regclass;
  value bigint;
  duplicates bigint;
begin
  -- The network's own entry among its 8, else the first free one.
  select e.entry, e.value, e.value >> 33 = fingerprint and (e.value >> 16) & 131071 = window_bits as own
  into chosen
  from generate_series(0, 7) probe,
       lateral (select format('%s%s_%s', prefix, kind,
                              ((get_byte(network, 4 + 2 * probe) << 8) | get_byte(network, 5 + 2 * probe)) % size)::regclass) s(entry),
       -- offset 0: read each sequence once, not once per mention of value
       lateral (select s.entry, coalesce(pg_catalog.pg_sequence_last_value(s.entry), 0) as value offset 0) e
  where (e.value >> 33 = fingerprint and (e.value >> 16) & 131071 = window_bits)
     or e.value = 0 or (e.value >> 16) & 131071 <> window_bits
  order by 3 desc, probe
  limit 1;
  if chosen is not null and chosen.own then
    if record then
      perform pg_catalog.setval(chosen.entry, (chosen.value & ~65535::bigint) | least((chosen.value & 65535) + 1, 65535));
      return least((chosen.value & 65535) + 1, 65535);
    end if;
    return chosen.value & 65535;
  elsif chosen is not null then
    -- Room for it: nothing counted yet in this window.
    if record then
      perform pg_catalog.setval(chosen.entry, (fingerprint << 33) | (window_bits << 16) | 1);
      return 1;
    end if;
    return 0;
  elsif fallback is not null then
    return private.network_duplicates(fallback, null, 'networks', kind, window_start, window_length, record);
  end if;
  -- No room: the shared counter of every network in this position, counted once per request
  -- (an IPv6 request whose /48 and /64 both land here is one duplicate, not two).
  overflow := format('private.signup_duplicates_overflow_%s', kind)::regclass;
  value := coalesce(pg_catalog.pg_sequence_last_value(overflow), 0);
  duplicates := case when value >> 32 = window_number then value & 4294967295 else 0 end;
  if record and coalesce(current_setting('waitlist.overflow_counted_' || kind, true), '') = '' then
    duplicates := duplicates + 1;
    perform pg_catalog.setval(overflow, (window_number << 32) | duplicates);
    perform set_config('waitlist.overflow_counted_' || kind, 'yes', true);
  end if;
  return least(duplicates, 2147483647);
end;
$$;
comment on function private.network_duplicates(bytea, bytea, text, text, timestamptz, interval, boolean) is
  'A network''s duplicates in a window: its own entry, else its /48''s shared entry (a /64), else the shared '
  'overflow counter; with record, one more first.';
revoke all on function private.network_duplicates(bytea, bytea, text, text, timestamptz, interval, boolean) from public;

create or replace function private.limit_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  clock timestamptz := private.signup_clock();
  -- UTC whatever the request's time zone (PostgREST applies Prefer: timezone=... as SET LOCAL
  -- timezone): date_trunc with 'UTC', and '24 hours', which unlike '1 day' is never 23 or 25.
  slot_start timestamptz := date_bin('10 minutes', clock, timestamptz '2000-01-01 00:00:00+00');
  slot_end timestamptz := slot_start + interval '10 minutes';
  day_start timestamptz := date_trunc('day', clock, 'UTC');
  day_end timestamptz := day_start + interval '24 hours';
  -- Normally prepared by the upkeep job (then nothing is written here); if this request must
  -- create it, the secret is rolled back with a duplicate, and so would be the duplicate's count.
  secret_is_new boolean := not exists (select from private.signup_secrets s where s.day_start = date_trunc('day', clock, 'UTC'));
  secret bytea := private.signup_secret(day_start);
  shards bytea[];
  client record;
  quota private.signup_limits;
  key bytea;
  keys bytea[] := '{}';
  fallbacks bytea[] := '{}';
  tables text[] := '{}';
  fallback bytea;
  counted record;
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

  -- 1. Every limit compared, nothing written. Broadest network first: each network's advisory
  --    lock (held to the end of the request) makes a concurrent request of the same network wait
  --    here until this one is over, so it sees this one's counts; every request takes them in the
  --    same order, then the row locks of the writes below, so concurrent signups cannot deadlock.
  for client in select * from private.client_networks() loop
    select * into quota from private.signup_limits l where l.scope = client.scope;
    continue when not found; -- a scope without a row is not limited
    key := extensions.hmac(convert_to(client.network, 'UTF8'), secret, 'sha256');
    fallback := case when client.scope = 'ipv6/64'
                     then extensions.hmac(convert_to('/64s of ' || network(set_masklen(client.network::inet, 48))::text, 'UTF8'),
                                         secret, 'sha256') end;
    perform pg_advisory_xact_lock(('x' || encode(substring(key from 1 for 8), 'hex'))::bit(64)::bigint);
    keys := keys || key;
    fallbacks := fallbacks || fallback;
    tables := tables || case when client.scope = 'ipv6/64' then 'lines' else 'networks' end;
    -- Over the limit when this request would be one too many.
    select * into counted from private.counted_signups(array[key], slot_start, day_start);
    if counted.in_slot
         + private.network_duplicates(key, fallback, tables[cardinality(tables)], 'slot', slot_start, interval '10 minutes', false)
         >= quota.per_10_minutes
       or counted.in_day
         + private.network_duplicates(key, fallback, tables[cardinality(tables)], 'day', day_start, interval '24 hours', false)
         >= quota.per_day then
      perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
    end if;
  end loop;
  -- 'all' counts signups only: the storage the free plan can hold. Counted in 16 shards (by
  -- connection), summed without a lock (one hot row would make every signup wait for the one
  -- before): concurrent requests may pass it by at most the number in flight.
  shards := array(select extensions.hmac(convert_to('all/' || shard, 'UTF8'), secret, 'sha256') from generate_series(0, 15) shard);
  select * into quota from private.signup_limits l where l.scope = 'all';
  if found then
    select * into counted from private.counted_signups(shards, slot_start, day_start);
    if counted.in_slot >= quota.per_10_minutes or counted.in_day >= quota.per_day then
      perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
    end if;
  end if;

  -- 2. The address itself (23502, 23514 with the table's own constraint names), before anything
  --    is written: a malformed request ends here having written nothing.
  perform private.check_address(new.email);

  -- 3. Admitted: only now is the address looked up, and the counters written.
  if not exists (select from private.signup_addresses a where a.address_hash = private.address_hash(new.email)) then
    foreach key in array keys loop
      perform private.count_signup(key, slot_start, slot_end), private.count_signup(key, day_start, day_end);
    end loop;
    perform private.count_signup(shards[pg_backend_pid() % 16 + 1], slot_start, slot_end),
            private.count_signup(shards[pg_backend_pid() % 16 + 1], day_start, day_end);
    return new;
  end if;
  -- A duplicate keeps its count past the coming rollback, unless that rollback takes the secret.
  if secret_is_new then
    perform private.refuse_request(429, 'Too Many Requests', 'PT429', too_many);
  end if;
  -- Duplicates update the sequences one at a time. Taken after every lock of the request, and
  -- nothing but setval follows it: no lock order to invert.
  perform pg_advisory_xact_lock(hashtext('waitlist duplicates'));
  for i in 1 .. cardinality(keys) loop
    perform private.network_duplicates(keys[i], fallbacks[i], tables[i], 'slot', slot_start, interval '10 minutes', true),
            private.network_duplicates(keys[i], fallbacks[i], tables[i], 'day', day_start, interval '24 hours', true);
  end loop;
  return new;
end;
$$;
comment on function private.limit_signups() is
  'Refuses a signup of the public roles from a foreign Origin (HTTP 403), or once one of its networks or all '
  'together are over private.signup_limits (HTTP 429), before its address is checked; writes its counts only '
  'once the address passed.';
revoke all on function private.limit_signups() from public;

create or replace function private.limit_rows_per_request() returns trigger
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
comment on function private.limit_rows_per_request() is
  'Refuses a second row in one request of the public roles (HTTP 400, PT400).';
revoke all on function private.limit_rows_per_request() from public;

-- Only the API's public roles are limited; the owner, seeds and service_role are not. Triggers of
-- one kind fire in name order: limit_rows_per_request first (a refused batch is never counted),
-- then limit_signups, then the sealing trigger (seal_new_signups).
create or replace trigger limit_rows_per_request
  before insert on public.waiting_list
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function private.limit_rows_per_request();

create or replace trigger limit_signups
  before insert on public.waiting_list
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function private.limit_signups();

-- Personal data is kept no longer than the slot it counts: run every minute by pg_cron.
create or replace function private.forget_expired_signups() returns integer
  language sql
  set search_path = ''
  as $$
  with counts as (delete from private.signup_counts where slot_end <= now() returning 1),
       secrets as (delete from private.signup_secrets where day_end <= now() returning 1)
  select (select count(*) from counts)::integer + (select count(*) from secrets)::integer
$$;
comment on function private.forget_expired_signups() is
  'Deletes counters whose slot is over and secrets whose day is over; returns how many rows went.';
revoke all on function private.forget_expired_signups() from public;

-- Today's and tomorrow's secrets, committed before any request needs them: a request that had to
-- create its day's secret cannot keep a duplicate's count (its rollback would take the secret).
create or replace function private.prepare_signup_secrets() returns void
  language sql
  set search_path = ''
  as $$
  select private.signup_secret(date_trunc('day', now(), 'UTC') + d * interval '24 hours') from generate_series(0, 1) d
$$;
revoke all on function private.prepare_signup_secrets() from public;
select private.prepare_signup_secrets();

-- The schedule. On Supabase, `create extension pg_cron with schema pg_catalog` (as its docs do) is
-- allowed to the migration role; elsewhere pg_cron may be missing or not loaded
-- (shared_preload_libraries), and the migration still applies: it then warns what nothing runs.
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

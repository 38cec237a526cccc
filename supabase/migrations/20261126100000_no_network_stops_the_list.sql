-- No one network can stop the list (supabase/security.md, "Duplicates cost quota" and "What it
-- takes to stop or read the list"):
-- * Duplicates never spend the signups' 'all' budget: 'all' counts signups, which is what it
--   protects (storage). A duplicate adds no row; each network's duplicates are held to that
--   network's own limits, and there is no overall budget for duplicates.
-- * Where a network's duplicates are counted. Rollback-proof counts live in sequences (setval is
--   never rolled back), a bounded number of them, so a table can fill up:
--     - IPv4 addresses, IPv6 /48s and the 'unknown' bucket: 512 entries per window kind
--       (private.signup_duplicates_networks_{slot,day}_0…511), 8 entries probed per network;
--     - IPv6 /64s: the 128 entries per window kind the guard had (private.signup_duplicates_{slot,day}_0…127);
--     - a /64 that finds none of its 8 free is counted in its /48's shared entry, '/64s of <the /48>'
--       in the networks table, limited like one /64: filling the /64 table from one /48 costs that
--       /48's neighbours only;
--     - a network (or a /48's shared entry) that finds none of its 8 free in the networks table is
--       counted, with every other network in that position, in one shared counter
--       (private.signup_duplicates_overflow_{slot,day}), limited like a single network of its scope,
--       once per request.
--   Those fail closed for themselves, never for a network with an entry of its own.
-- * The order of a request: the origin check (403 PT403); every limit compared WITHOUT writing
--   (429 PT429), each network's counters read under a transaction-level advisory lock of its own
--   (in memory, no WAL), so concurrent requests of one network still see each other; then the
--   address checks (400 23514 / 23502, the same constraint names); only then are counters written.
--   A malformed request writes nothing: no transaction id, no WAL record.
--
-- private.limit_signups() is redefined here. It calls private.check_address() (sealed_list) but
-- seals nothing: sealing stays in private.seal_signup(), which still fires after it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

do $$
begin
  for entry in 0..511 loop
    execute format('create sequence private.signup_duplicates_networks_slot_%s as bigint', entry);
    execute format('create sequence private.signup_duplicates_networks_day_%s as bigint', entry);
  end loop;
end;
$$;
-- value = window number << 32 | count, like the old all-duplicates counters.
create sequence private.signup_duplicates_overflow_slot as bigint;
create sequence private.signup_duplicates_overflow_day as bigint;
revoke all on all sequences in schema private from public, anon, authenticated, service_role;

-- A network's duplicates in a window (kind 'slot' or 'day'); with record, one more first. `network`
-- is the key of the day (sha256), `of` the table it is counted in ('lines': /64s, 'networks': the
-- rest), `fallback` where a full 'lines' entry set sends it (its /48's shared entry). Entries:
--   fingerprint (30 bits of the key) << 33 | window number (17 bits) << 16 | count (16 bits);
-- an entry of an earlier window is free. The 8 probed entries come from 8 different 16-bit slices of
-- the key. Callers that record hold the advisory lock 'waitlist duplicates'.
create function private.network_duplicates(network bytea, fallback bytea, of text, kind text,
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

-- Signups counted for a network (or the 'all' shards) in the 10-minute slot and the day, read
-- without writing. PL/pgSQL, not SQL: it keeps its plan (a SQL function with SET plans every call).
create function private.counted_signups(networks bytea[], slot_start timestamptz, day_start timestamptz,
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
    key := sha256(secret || convert_to(client.network, 'UTF8'));
    fallback := case when client.scope = 'ipv6/64'
                     then sha256(secret || convert_to('/64s of ' || network(set_masklen(client.network::inet, 48))::text, 'UTF8')) end;
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
  -- 'all' counts signups only: the storage the free plan can hold. Summed over its 16 shards (by
  -- connection) without a lock: concurrent requests may pass it by at most the number in flight.
  shards := array(select sha256(secret || convert_to('all/' || shard, 'UTF8')) from generate_series(0, 15) shard);
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
  if not exists (select from private.waiting_list_keys k where k.address_hash = private.address_hash(new.email)) then
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

update private.signup_limits
set applies_to = 'every signup of the public roles, together (duplicates count per network only): the storage the free plan can hold'
where scope = 'all';

-- The duplicates' old bookkeeping: 'all' no longer counts them.
drop function private.count_all_duplicates(text, timestamptz, interval, boolean);
drop function private.count_duplicate(bytea, text, timestamptz, interval, boolean);
drop sequence private.signup_duplicates_all_slot;
drop sequence private.signup_duplicates_all_day;

revoke all on function private.network_duplicates(bytea, bytea, text, text, timestamptz, interval, boolean) from public;
revoke all on function private.counted_signups(bytea[], timestamptz, timestamptz) from public;

reset lock_timeout;
reset statement_timeout;

-- Shared allocations, over 20261128100100_signup_guard.sql:
-- * A /64 with no entry of its own in the /64 duplicate table has its duplicates limited through
--   its /48 alone (16 times a /64's limit). It used to share one entry per /48, limited like one
--   /64: a sixteenth of the /48's budget locked its neighbours out, and one /48 filling the global
--   /64 table shrank every other /48's.
-- * 6to4 (2002::/16) and Teredo (2001::/32) addresses count as the IPv4 client they carry.

set lock_timeout = '5s';
set statement_timeout = '60s';

-- As in 20261128100100_signup_guard.sql, with 6to4 and Teredo counted as their IPv4 client.
create or replace function private.client_networks(out scope text, out network text)
  returns setof record
  language plpgsql stable
  set search_path = ''
  as $$
declare
  header text := btrim(private.request_header('cf-connecting-ip'));
  address inet;
  bits varbit;
  ipv4 bit(32);
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
  -- An IPv4 client reached over IPv6 counts as its IPv4 address: IPv4-mapped (::ffff:a.b.c.d),
  -- 6to4 (2002::/16: the address in bits 16-47), Teredo (2001:0000::/32 only: the client's public
  -- address in the last 32 bits, each bit inverted). inet_send: 4 header bytes, then the address.
  bits := ('x' || encode(inet_send(address), 'hex'))::varbit;
  ipv4 := case when address <<= inet '::ffff:0:0/96' then substring(bits from 129 for 32)
               when address <<= inet '2002::/16' then substring(bits from 49 for 32)
               when address <<= inet '2001::/32' then ~substring(bits from 129 for 32) end;
  address := coalesce(inet '0.0.0.0' + ipv4::bigint, address);

  if family(address) = 4 then
    scope := 'ipv4'; network := network(set_masklen(address, 32))::text; return next;
  else
    scope := 'ipv6/48'; network := network(set_masklen(address, 48))::text; return next;
    scope := 'ipv6/64'; network := network(set_masklen(address, 64))::text; return next;
  end if;
end;
$$;
comment on function private.client_networks() is
  'The networks the current request counts against, from cf-connecting-ip; ''unknown'' without a usable one. '
  'An IPv4-mapped, 6to4 or Teredo address counts as the IPv4 address it carries.';
revoke all on function private.client_networks() from public;

update private.signup_limits
set applies_to = 'each IPv4 address; an IPv4-mapped (::ffff:a.b.c.d), 6to4 (2002::/16) or Teredo (2001::/32) '
                 'IPv6 address counts as the IPv4 address it carries'
where scope = 'ipv4';

-- As in 20261128100100_signup_guard.sql (the entries' layout is there), except that a /64 which
-- finds none of its 8 entries free counts 0 and records nothing: its /48's own count holds it.
-- `fallback` is no longer read (private.limit_signups still passes it).
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
  elsif of = 'lines' then
    -- No room for a /64: its /48, counted in the networks table, alone limits its duplicates.
    return 0;
  end if;
  -- No room: the shared counter of every network in this position (a request has one network here).
  overflow := format('private.signup_duplicates_overflow_%s', kind)::regclass;
  value := coalesce(pg_catalog.pg_sequence_last_value(overflow), 0);
  duplicates := case when value >> 32 = window_number then value & 4294967295 else 0 end;
  if record then
    duplicates := duplicates + 1;
    perform pg_catalog.setval(overflow, (window_number << 32) | duplicates);
  end if;
  return least(duplicates, 2147483647);
end;
$$;
comment on function private.network_duplicates(bytea, bytea, text, text, timestamptz, interval, boolean) is
  'A network''s duplicates in a window: its own entry; else, for a /64, 0 (its /48 alone limits it); else the '
  'shared overflow counter; with record, one more first. fallback is no longer read (limit_signups still passes it).';
revoke all on function private.network_duplicates(bytea, bytea, text, text, timestamptz, interval, boolean) from public;

reset lock_timeout;
reset statement_timeout;

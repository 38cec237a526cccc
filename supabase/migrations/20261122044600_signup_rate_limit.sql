-- Abuse guard: at most 20 signups per client network per 10 minutes, enforced by the database.
--
-- Supabase's documented pattern is a db_pre_request function, but that runs once per HTTP
-- request and cannot see the body: one POST of a JSON array (or a GraphQL mutation, whose path
-- is /rpc/graphql) inserts any number of rows. So the same check runs as a row trigger: every
-- row the public roles insert counts, whatever the path or batch. It also leaves the project's
-- single pgrst.db_pre_request slot free and needs no ALTER ROLE in a migration.

-- Not in the API's exposed schemas (public, graphql_public): unreachable over HTTP.
create schema if not exists private;
revoke all on schema private from public;
comment on schema private is 'Internal tables and functions; never exposed through the Data API.';

-- The one constant of the guard.
create function private.signup_limit(out max_signups integer, out per interval)
  language sql immutable parallel safe
  as $$ select 20, interval '10 minutes' $$;
comment on function private.signup_limit() is
  'Signups allowed per client network per window. Many colleagues may share one corporate address.';

-- Client addresses are personal data: each row lives one window, then the next signup deletes it.
create table private.signup_attempts (
  client cidr not null,
  attempted_at timestamptz not null default now()
);
create index signup_attempts_client_idx on private.signup_attempts (client, attempted_at);
create index signup_attempts_expiry_idx on private.signup_attempts (attempted_at);
comment on table private.signup_attempts is 'Recent signups per client network, for the abuse guard.';

-- The trusted address: Supabase's API sits behind Cloudflare, which sets cf-connecting-ip to the
-- address that opened the connection and overwrites any value a client sends. The first element
-- of x-forwarded-for is whatever the client wrote, so it is never read. IPv6 counts per /64
-- (what one subscriber gets), IPv4 per address. No or malformed header: one shared bucket.
create function private.client_network() returns cidr
  language plpgsql stable
  set search_path = ''
  as $$
declare
  address inet;
begin
  address := nullif(current_setting('request.headers', true), '')::json ->> 'cf-connecting-ip';
  return coalesce(
    network(set_masklen(address, case family(address) when 4 then 32 else 64 end)),
    '0.0.0.0/0');
exception when invalid_text_representation then
  return '0.0.0.0/0';
end;
$$;

create function private.limit_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  quota record := private.signup_limit();
  origin cidr := private.client_network();
begin
  -- Concurrent signups from one network wait for each other, so none slips past the count.
  perform pg_advisory_xact_lock(hashtext('signup ' || origin::text));

  delete from private.signup_attempts
  where ctid = any (array(
    select ctid from private.signup_attempts
    where attempted_at <= now() - quota.per
    order by attempted_at limit 100 for update skip locked));

  if (select count(*) from private.signup_attempts a
      where a.client = origin and a.attempted_at > now() - quota.per) >= quota.max_signups then
    -- PostgREST's custom error: the message is the JSON body, the detail the HTTP status.
    raise sqlstate 'PGRST' using
      message = json_build_object(
        'code', 'PT429',
        'message', 'Too many signups from this network. Try again in a few minutes.',
        'details', null,
        'hint', null)::text,
      detail = json_build_object(
        'status', 429,
        'status_text', 'Too Many Requests',
        'headers', json_build_object())::text;
  end if;

  -- Rolled back with the insert when the row is refused: only signups that land count.
  insert into private.signup_attempts (client) values (origin);
  return new;
end;
$$;
revoke all on function private.limit_signups() from public;
revoke all on function private.client_network() from public;
comment on function private.limit_signups() is
  'Refuses a signup with HTTP 429 once a client network reached private.signup_limit().';

-- Only the API's public roles are limited; the owner, seeds and service_role are not.
create trigger limit_signups
  before insert on public.waiting_list
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function private.limit_signups();

-- The guard's last openings (supabase/security.md):
-- * Request headers PostgREST set but that cannot be read (an escaped NUL, "\u0000", makes every
--   ->> on them fail) are refused with 400 PT400, no longer taken for "no such header".
-- * Membership is looked up only once the limits admitted the request: a refused request does
--   the same work whether its address is listed or not, and takes no lock for it.
-- * private.allowed_origins holds origins only as browsers send them: an ASCII (xn--) host and
--   no default port. Stored ':443' / ':80' origins are rewritten; a non-ASCII one stops this
--   migration with the form to store instead.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole.
-- Session-level and reset at the end: `supabase db push` runs each file in one transaction but not
-- in a transaction block, where SET LOCAL warns (the tests' runner wraps each file in BEGIN/COMMIT).
set lock_timeout = '5s';
set statement_timeout = '60s';

-- The current API request's headers (PostgREST sets request.headers, names in lower case); null
-- outside an API request. Set but unreadable: the request is refused (400 PT400), never read as
-- having no headers, which would skip the Origin check and count it in 'unknown'.
create function private.request_headers() returns jsonb
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

-- As before, with the header read outside the block that turns a malformed address into 'unknown'.
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

-- As before, but whether the address is listed is looked up only after the limits admitted the
-- request, and only then does a duplicate take the advisory lock: with the quota spent, a listed
-- and an unlisted address do the same work and get the same 429.
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
  if not exists (select from private.waiting_list_keys k where k.email_key = private.email_key(new.email)) then
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

-- What is wrong with an origin a browser would never send, naming the form to store; null if none.
-- Browsers send a host in ASCII (an internationalized name in its xn-- form) and leave out the
-- scheme's default port (WHATWG URL, "origin"). The shape itself is checked by allowed_origins_shape.
create function private.origin_problem(origin text) returns text
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

create function private.check_allowed_origin() returns trigger
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

-- Stored default ports meant the origin without them: keep that form, once.
delete from private.allowed_origins a
where a.origin ~ '^(https://.+:443|http://.+:80)$'
  and exists (select from private.allowed_origins b where b.origin = regexp_replace(a.origin, ':(443|80)$', ''));
update private.allowed_origins
set origin = regexp_replace(origin, ':(443|80)$', '')
where origin ~ '^(https://.+:443|http://.+:80)$';

create trigger check_allowed_origin
  before insert or update on private.allowed_origins
  for each row
  execute function private.check_allowed_origin();
-- Every stored origin through the new check: a non-ASCII one stops the migration, naming its fix.
update private.allowed_origins set origin = origin;

reset lock_timeout;
reset statement_timeout;

-- private.unsubscribe takes only what notify's links carry: a 32-byte address hash
-- (private.address_hash, HMAC-SHA256). Anything else is refused (22023) and stores nothing.
-- CREATE OR REPLACE keeps the function's grants: waitlist_unsubscribe may execute it, as before.

set lock_timeout = '5s';
set statement_timeout = '60s';

create or replace function private.unsubscribe(hash bytea) returns void
  language plpgsql volatile strict security definer
  set search_path = ''
  as $$
begin
  if octet_length(hash) <> 32 then
    raise exception 'private.unsubscribe takes a 32-byte address hash, not % bytes', octet_length(hash)
      using errcode = 'invalid_parameter_value';
  end if;
  insert into private.do_not_email (address_hash, reason) values (hash, 'unsubscribed')
  on conflict (address_hash) do update set reason = 'unsubscribed', added_at = now()
    where private.do_not_email.reason = 'erased';
end;
$$;
comment on function private.unsubscribe(bytea) is
  'One-click unsubscribe of a 32-byte keyed address hash (supabase/functions/unsubscribe); any other length is '
  'refused. Idempotent.';

reset lock_timeout;
reset statement_timeout;

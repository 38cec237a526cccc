-- An unsubscribe outlives a bounce: a one-click unsubscribe of an address booked as 'bounced' books
-- it as 'unsubscribed', so that no later repair of bounces (`suppress --repair-bounces`, which takes
-- back only 'bounced' entries) takes the opt-out with it. 'suppressed' and 'unsubscribed' entries
-- stay as they are; an 'erased' one becomes 'unsubscribed', as before.

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
    where private.do_not_email.reason in ('erased', 'bounced');
end;
$$;

reset lock_timeout;
reset statement_timeout;

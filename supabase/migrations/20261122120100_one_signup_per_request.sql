-- A request reveals no more than the product's own answer for the one address it adds.
--
-- Before: one POST of [listed-address, "not-an-email"] answered 23505 if the first address was
-- listed and 23514 if not, inserted nothing and was not counted: a free, batchable probe.
-- Now:
-- 1. The public roles add one row per request (transaction): a second row is refused with
--    PostgREST's 400 "PT400" before its own checks run, whatever the first row was.
-- 2. The duplicate check runs after every row's own checks, at the end of the statement: the
--    lower-cased key lives in private.waiting_list_keys, filled by an AFTER STATEMENT trigger.
--    So [listed, anything] and [new, anything] get the same refusal; a single listed address
--    still gets 409 / 23505 ("Already Registered"), without details.

create function private.limit_rows_per_request() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  -- Transaction-local: PostgREST runs each request in its own transaction.
  if coalesce(current_setting('waitlist.signup_rows', true), '') <> '' then
    raise sqlstate 'PGRST' using
      message = json_build_object(
        'code', 'PT400',
        'message', 'One signup per request.',
        'details', null,
        'hint', 'Send one object, not an array.')::text,
      detail = json_build_object(
        'status', 400,
        'status_text', 'Bad Request',
        'headers', json_build_object())::text;
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

-- One signup per address in any letter case, checked once the statement's rows passed their
-- own checks. lower() folds Unicode under C.UTF-8, Supabase's locale.
create table private.waiting_list_keys (
  id bigint primary key references public.waiting_list (id) on delete cascade on update cascade,
  email_key text not null,
  constraint waiting_list_email_key unique (email_key)
);
comment on table private.waiting_list_keys is
  'lower(email) of every row of public.waiting_list, unique: the list''s duplicate check.';

insert into private.waiting_list_keys (id, email_key) select id, lower(email) from public.waiting_list;
drop index public.waiting_list_email_lower_key;

create function private.key_new_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  insert into private.waiting_list_keys (id, email_key) select id, lower(email) from new_rows;
  return null;
exception when unique_violation then
  -- Same code and message, without the DETAIL, which would quote the key to a role that may not
  -- read the list (PostgreSQL itself leaves it out for such a role).
  raise unique_violation using message = sqlerrm;
end;
$$;

create function private.rekey_changed_signups() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  update private.waiting_list_keys k set email_key = lower(n.email)
  from new_rows n
  where k.id = n.id and k.email_key is distinct from lower(n.email);
  return null;
exception when unique_violation then
  raise unique_violation using message = sqlerrm;
end;
$$;
revoke all on function private.key_new_signups() from public;
revoke all on function private.rekey_changed_signups() from public;

create trigger key_new_signups
  after insert on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.key_new_signups();

create trigger rekey_changed_signups
  after update on public.waiting_list
  referencing new table as new_rows
  for each statement
  execute function private.rekey_changed_signups();

comment on column public.waiting_list.email is
  'As typed (trimmed by the page). Shape and length enforced by checks; unique on lower(email) '
  'through private.waiting_list_keys, checked at the end of the statement.';

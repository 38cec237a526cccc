-- Key holders, over 20261128100200_sealing.sql: the list had one owner key and one
-- wrapped copy of each hour key, so one lost file lost the list. Now:
-- * private.key_holders holds every holder's OpenPGP public key (RSA: pgcrypto wraps to RSA or
--   Elgamal only), and when `keys check` last proved that holder's stored copy opens the list.
-- * private.hour_keys names each hour key (its id seals rows, private.signup_addresses.hour_key_id);
--   private.wrapped_hour_keys holds one wrapped copy per hour key and holder (pgcrypto wraps to one
--   key at a time), so any one holder opens the whole list; losing every holder's key loses it.
-- * A signup takes the hour's key only while it is wrapped to every holder: `keys add` wraps
--   the past ones in Node, and a key made before the new holder existed is not used after.
--   `keys remove` deletes the holder's copies and the clear keys, so a new one is made at once.

-- The tables changed hold a row per holder and per hour: their locks last a moment, and only the
-- owner's command and the signup triggers (restated below) read them.
-- squawk-ignore-file require-concurrent-index-creation, renaming-table, renaming-column, adding-field-with-default, ban-drop-column, adding-serial-primary-key-field, constraint-missing-not-valid, disallowed-unique-constraint

set lock_timeout = '5s';
set statement_timeout = '60s';

alter table private.owner_key rename to key_holders;
alter table private.key_holders drop constraint owner_key_pkey;
alter table private.key_holders drop column one_row;
alter table private.key_holders rename column installed_at to added_at;
alter table private.key_holders add column id bigint generated always as identity primary key;
alter table private.key_holders add column checked_at timestamptz;
-- By digest: a key with several user IDs outgrows an index entry (2,704 bytes).
create unique index key_holders_public_key on private.key_holders (sha256(public_key));
comment on table private.key_holders is
  'Each key holder''s OpenPGP public key (RSA): every hour key is wrapped to each. checked_at: when `waitlist keys '
  'check` last proved the holder''s stored private key opens the list.';

alter table private.wrapped_hour_keys rename to hour_keys;
create table private.wrapped_hour_keys (
  hour_key_id bigint not null references private.hour_keys (id) on delete cascade,
  holder_id bigint not null references private.key_holders (id) on delete cascade,
  wrapped bytea not null,
  primary key (hour_key_id, holder_id)
);
create index wrapped_hour_keys_holder on private.wrapped_hour_keys (holder_id);
insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
select k.id, h.id, k.wrapped from private.hour_keys k cross join private.key_holders h;
alter table private.hour_keys drop column wrapped;
comment on table private.hour_keys is
  'Each hour key''s id and hour; several in one hour when first signups race, after a crash or a change of holders, '
  'and for the key `keys init` made on the owner''s machine to seal the rows stored before it.';
comment on table private.wrapped_hour_keys is 'Each hour key wrapped to each key holder''s public key.';
comment on column private.signup_addresses.hour_key_id is
  'The private.hour_keys key that sealed this row; null while not sealed.';
revoke all on table private.key_holders, private.hour_keys, private.wrapped_hour_keys
  from public, anon, authenticated, service_role;

-- As in 20261128100200_sealing.sql, with one wrapped copy per holder.
create or replace function private.hour_key(out id bigint, out clear_key bytea)
  language plpgsql
  set search_path = ''
  as $$
declare
  hour timestamptz := date_trunc('hour', private.seal_clock(), 'UTC');
  slot text := private.hour_key_table(hour);
begin
  if not exists (select from private.key_holders) then
    return;
  end if;
  execute format('select k.id, k.clear_key from private.%I k where k.hour = $1 and not exists ('
                 '  select from private.key_holders h where not exists ('
                 '    select from private.wrapped_hour_keys w where w.hour_key_id = k.id and w.holder_id = h.id))'
                 ' order by k.id desc limit 1', slot)
    into id, clear_key using hour;
  if id is not null then
    return;
  end if;
  clear_key := extensions.gen_random_bytes(64);
  insert into private.hour_keys (hour) values (hour) returning hour_keys.id into id;
  insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
  select hour_key.id, h.id, extensions.pgp_pub_encrypt_bytea(clear_key, h.public_key) from private.key_holders h;
  execute format('insert into private.%I (id, hour, clear_key) values ($1, $2, $3)', slot) using id, hour, clear_key;
end;
$$;
revoke all on function private.hour_key() from public;

-- As in 20261128100200_sealing.sql, sealing once a holder exists.
create or replace function private.seal_status(
  out sealing boolean, out stalled boolean, out plaintext bigint, out unhashed bigint, out unreadable bigint)
  language sql stable
  set search_path = ''
  as $$
  select exists (select from private.key_holders),
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
revoke all on function private.seal_status() from public;
comment on function private.seal_status() is
  'sealing: a key holder exists; stalled: a past hour''s key is still held in clear 5 minutes into the hour (the '
  'minute job failed or is missing); plaintext, unhashed, unreadable: rows stored as typed, outside the duplicate '
  'check, with neither an address nor a seal.';

-- health's daily role reads when each holder's key was last checked, nothing else of the keys.
do $$
begin
  if exists (select from pg_roles where rolname = 'waitlist_health') then
    grant select (id, added_at, checked_at) on private.key_holders to waitlist_health;
  end if;
end;
$$;

reset lock_timeout;
reset statement_timeout;

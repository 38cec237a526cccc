-- A holder is a key, and a removed hour key leaves its table's file, over 20261128120000_key_holders.sql:
-- * The same OpenPGP key exported with one more user ID has other bytes: holders were unique by
--   sha256(public_key), so it became a second holder row, which `keys remove` left holding the list.
--   Now unique by the encryption key's id (pgp_key_id; pgcrypto reads no fingerprint) and by the
--   primary key's fingerprint, which the owner's command records (openpgp.js). Rows of one key are
--   merged into its oldest, which keeps every hour key either row was wrapped to.
-- * A DELETEd clear key stays in its table's file as a dead row. retire_hour_keys() now truncates
--   every past hour's table whose file is not empty, judged by the file's size, not by a live row.
--   The current hour's table is never truncated (signups never wait), so a key `keys remove` deletes
--   there is gone from the files within a minute of its hour's end.
-- * Names. In 20261128100200_sealing.sql private.wrapped_hour_keys held one row per hour key (its
--   id, hour and one wrapped copy, to the one owner key). 20261128120000_key_holders.sql renamed that
--   table private.hour_keys (each hour key's id and hour) and gave the name to a new table, one
--   wrapped copy per hour key and holder: what the name means since, in SQL, code and docs. The
--   comment 20261128100000_waiting_list.sql sets on signup_addresses.hour_key_id names the first
--   meaning (private.hour_keys since; the later file sets it anew). The sequence and primary key of
--   private.hour_keys, still named for wrapped_hour_keys, are renamed below.

-- A few rows, read only by the owner's command and the signup triggers: their locks last a moment.
-- squawk-ignore-file require-concurrent-index-creation, require-concurrent-index-deletion, adding-field-with-default, constraint-missing-not-valid

set lock_timeout = '5s';
set statement_timeout = '60s';

-- A later row of a key gives the oldest the copies it lacks, and its last check; then it goes.
insert into private.wrapped_hour_keys (hour_key_id, holder_id, wrapped)
select w.hour_key_id, r.kept, w.wrapped
from private.wrapped_hour_keys w
join (select id, min(id) over (partition by extensions.pgp_key_id(public_key)) as kept from private.key_holders) r
  on r.id = w.holder_id and r.id <> r.kept
on conflict do nothing;
update private.key_holders h set checked_at = r.checked_at
from (select min(id) as id, max(checked_at) as checked_at from private.key_holders
      group by extensions.pgp_key_id(public_key)) r
where r.id = h.id;
delete from private.key_holders h
where exists (select from private.key_holders o
              where o.id < h.id and extensions.pgp_key_id(o.public_key) = extensions.pgp_key_id(h.public_key));

drop index private.key_holders_public_key;
create unique index key_holders_key_id on private.key_holders (extensions.pgp_key_id(public_key));
alter table private.key_holders add column fingerprint text
  constraint key_holders_fingerprint_hex check (fingerprint ~ '^[0-9A-F]{40}([0-9A-F]{24})?$');
create unique index key_holders_fingerprint on private.key_holders (fingerprint);
comment on table private.key_holders is
  'Each key holder''s OpenPGP public key (RSA), one row per key (by its encryption key''s id and its primary key''s '
  'fingerprint): every hour key is wrapped to each. fingerprint: as the owner''s command read it (null for a key '
  'added before it recorded one). checked_at: when `waitlist keys check` last proved the holder''s stored private '
  'key opens the list.';
alter sequence private.wrapped_hour_keys_id_seq rename to hour_keys_id_seq;
alter table private.hour_keys rename constraint wrapped_hour_keys_pkey to hour_keys_pkey;
alter table private.wrapped_hour_keys rename constraint wrapped_hour_keys_pkey1 to wrapped_hour_keys_pkey;
comment on table private.wrapped_hour_keys is
  'Each hour key wrapped to each key holder''s public key (until 20261128120000_key_holders.sql this name was the '
  'table now private.hour_keys).';

-- As in 20261128100200_sealing.sql, but judged by the file: a deleted key's dead row goes too.
create or replace function private.retire_hour_keys() returns integer
  language plpgsql
  set search_path = ''
  as $$
declare
  hour timestamptz := date_trunc('hour', private.seal_clock(), 'UTC');
  slot text;
  early boolean;
  retired integer := 0;
begin
  -- An older key in the current hour's table (the job stopped for over an hour): deleted, with no
  -- lock a signup waits for; its dead row goes with the file once this hour is over.
  execute format('delete from private.%I where hour < $1', private.hour_key_table(hour)) using hour;
  foreach slot in array array['hour_key_0', 'hour_key_1', 'hour_key_2'] loop
    continue when slot = private.hour_key_table(hour)
      or pg_catalog.pg_relation_size(format('private.%I', slot)::regclass) = 0;
    -- Not a table holding the next hour's key (that hour's first signup may be early).
    execute format('select exists (select from private.%I where hour >= $1)', slot) into early using hour;
    continue when early;
    begin
      execute format('lock table private.%I in access exclusive mode nowait', slot);
      execute format('truncate private.%I', slot);
      retired := retired + 1;
    exception when lock_not_available then
      null; -- a signup of the hour before still holds it: the next run empties it
    end;
  end loop;
  return retired;
end;
$$;
comment on function private.retire_hour_keys() is
  'Truncates each past hour''s clear-key table whose file is not empty, dead rows included (each minute, by pg_cron, '
  'and `keys remove`); returns how many it truncated.';
revoke all on function private.retire_hour_keys() from public;

reset lock_timeout;
reset statement_timeout;

-- The one-time clean-up of a database migrated with the chain of 2026-11-26 (the 16 files kept in
-- supabase/tests/fixtures/chain-2026-11-26/). Run by `npm run waitlist -- baseline` in one
-- transaction, followed there by every file of supabase/migrations/, which sets each function,
-- comment and grant anew: together they leave exactly the schema a fresh baseline has
-- (supabase/tests/baseline.test.ts compares the two). Here: what the baseline files cannot do in
-- place: the hash ratchet goes, names change, and what changed shape is dropped to be made again.
-- Signups, hashes, seals, hour keys, the owner key and the owner's lists are kept.

set lock_timeout = '5s';
set statement_timeout = '60s';

do $$
begin
  if exists (select from private.waiting_list_keys where step is not null) then
    raise exception 'Some signups are sealed by the hash ratchet: move them to hour keys first (`npm run waitlist -- keys upgrade` in a clone of commit a854308).';
  end if;
  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.unschedule(jobid) from cron.job where jobname = 'waitlist-seal-ratchet';
  end if;
end;
$$;

-- The ratchet.
drop function private.advance_seal_key();
drop function private.set_seal_key(integer, bytea);
drop function private.seal_address(private.seal_key, bigint, text);
drop function private.ratchet_derive(bytea, text);
drop table private.seal_key, private.seal_chain;

-- Renamed, or of another shape: made again by the baseline files.
drop trigger check_new_signup_keys on public.waiting_list;
drop trigger check_changed_signup_keys on public.waiting_list;
drop function private.check_signup_keys();
drop function private.email_key(text);
drop function private.network_key(text, timestamptz);
drop function private.seal_status();
drop view private.mailable_signups;
drop policy waiting_list_fresh_signup on public.waiting_list;
-- Unused since 20261126100000_no_network_stops_the_list.sql.
drop function private.count_all(bytea, timestamptz, timestamptz);

alter table private.owner_secret rename to address_hash_secret;
alter table private.address_hash_secret rename constraint owner_secret_pkey to address_hash_secret_pkey;
alter table private.address_hash_secret rename constraint owner_secret_one_row_check to address_hash_secret_one_row_check;

alter table private.seal_keys rename to wrapped_hour_keys;
alter table private.wrapped_hour_keys rename constraint seal_keys_pkey to wrapped_hour_keys_pkey;
alter sequence private.seal_keys_id_seq rename to wrapped_hour_keys_id_seq;

alter table private.waiting_list_keys rename to signup_addresses;
alter table private.signup_addresses rename constraint waiting_list_keys_pkey to signup_addresses_pkey;
alter table private.signup_addresses rename constraint waiting_list_keys_id_fkey to signup_addresses_id_fkey;
alter table private.signup_addresses drop constraint waiting_list_keys_sealed_by;
alter table private.signup_addresses drop column step;
alter table private.signup_addresses rename column sealed to seal;
alter table private.signup_addresses rename column key_id to hour_key_id;
alter table private.signup_addresses
  add constraint signup_addresses_seal_names_its_key check ((seal is null) = (hour_key_id is null));

-- Added NOT VALID by the chain (rows from before the rule were kept); the baseline's is valid.
alter table public.waiting_list validate constraint waiting_list_email_format;

reset lock_timeout;
reset statement_timeout;

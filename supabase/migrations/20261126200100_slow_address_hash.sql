-- The keyed hash of an address made slow to guess (supabase/security.md, "Pseudonymous, not
-- anonymous"). The duplicate check must be computable by the database, so whoever holds a copy
-- holds the secret too and can test guessed addresses; each guess now costs 64 HMAC-SHA256
-- computations instead of one SHA-256. pgcrypto has no PBKDF2 or scrypt, and bcrypt's crypt()
-- reads only 72 bytes (long addresses would collide): an iterated HMAC, keyed with the secret.
-- The stored hashes are carried over: the new hash is the iteration over the old one, so no
-- address is needed to convert a row (the do-not-email list holds none).
--
-- private.address_hash(address) stays THE one definition: the list's duplicate check, the
-- do-not-email list, the send journal and anything else that keys by address call it.

set lock_timeout = '5s';
set statement_timeout = '60s';

-- h₀ = the old keyed hash; hᵢ₊₁ = HMAC-SHA256(secret, hᵢ); returns h₆₄.
create function private.stretch_hash(secret bytea, digest bytea) returns bytea
  language plpgsql immutable parallel safe strict
  set search_path = ''
  as $$
declare
  h bytea := digest;
begin
  for i in 1 .. 64 loop
    h := extensions.hmac(h, secret, 'sha256');
  end loop;
  return h;
end;
$$;
revoke all on function private.stretch_hash(bytea, bytea) from public;

create or replace function private.address_hash(address text) returns bytea
  language sql stable parallel safe
  set search_path = ''
  as $$ select private.stretch_hash(s.secret, private.keyed_hash(s.secret, address)) from private.owner_secret s $$;
comment on function private.address_hash(text) is
  'The keyed hash of an address, the same for every letter case and Unicode form (private.email_key): 64 rounds '
  'of HMAC-SHA256 under private.owner_secret over sha256(secret || email_key). The one definition: call it.';

-- Every stored hash, carried over (small tables, read and written by the owner's commands and
-- the triggers only; a migration runs in one transaction).
update private.waiting_list_keys k set address_hash = private.stretch_hash(s.secret, k.address_hash)
  from private.owner_secret s;
update private.do_not_email d set address_hash = private.stretch_hash(s.secret, d.address_hash)
  from private.owner_secret s;
update private.notify_journal j set address_hash = private.stretch_hash(s.secret, j.address_hash)
  from private.owner_secret s;

reset lock_timeout;
reset statement_timeout;

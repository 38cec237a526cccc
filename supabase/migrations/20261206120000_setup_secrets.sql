-- What `waitlist setup` must find again on another machine, so that no secret lives only in one
-- laptop's .env.local: the key that signs unsubscribe links (notify signs with it, the function
-- checks with it), the login roles' passwords (the function's and the daily check's copies), and
-- the origins setup allowed (so a rerun removes those that no longer serve the site). Read and
-- written by the owner's database role alone; nobody else is granted anything.

set lock_timeout = '5s';
set statement_timeout = '60s';

create table private.setup_secrets (
  name text primary key check (name in ('unsubscribe_secret', 'waitlist_unsubscribe', 'waitlist_health', 'site_origins')),
  value text not null,
  changed_at timestamptz not null default now()
);
comment on table private.setup_secrets is
  'What waitlist setup reads back on any machine: the unsubscribe signing key, the login roles'' passwords and the '
  'origins it allowed. Rotating the signing key (setup --rotate-unsubscribe-key) voids every link already sent.';
revoke all on private.setup_secrets from public, anon, authenticated, service_role;

reset lock_timeout;
reset statement_timeout;

-- The owner's side (cli/, `npm run waitlist`): the do-not-email list and the send journal.
-- Neither holds an address: both hold its keyed hash (private.address_hash, kept for every signup
-- in private.waiting_list_keys by the list's migration), so an erased person's address is gone
-- from the database while no later send or import can reach it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

create table private.do_not_email (
  address_hash bytea primary key,
  reason text not null check (reason in ('erased', 'unsubscribed', 'bounced', 'suppressed')),
  added_at timestamptz not null default now()
);
comment on table private.do_not_email is
  'Addresses never to export or email, as private.address_hash(). An ''erased'' entry yields to a '
  'signup made after it (a new consent); the others always apply.';

-- The signups that may be exported and emailed: `waitlist export` and `notify` read this. The
-- do-not-email list is small, so the excluded ids are one hashed set. security_invoker: it never
-- shows the list to a role that may not read the table.
create view private.mailable_signups with (security_invoker = true) as
  select w.id, w.email, w.created_at
  from public.waiting_list w
  where w.id not in (
    select h.id
    from private.do_not_email d
    join private.waiting_list_keys h on h.address_hash = d.address_hash
    join public.waiting_list l on l.id = h.id
    where not (d.reason = 'erased' and l.created_at > d.added_at));
comment on view private.mailable_signups is
  'public.waiting_list without the do-not-email list (an erased address that signed up again is back).';

-- One row per campaign and address: the primary key is what makes a message go at most once.
-- pending -> sending (committed before the SMTP server gets it) -> sent | failed | skipped.
-- A row left in 'sending' by a killed run is uncertain: the server may or may not have it.
create table private.notify_journal (
  campaign text not null,
  address_hash bytea not null,
  -- Where to read the address while the row waits; cleared when the signup is erased.
  signup_id bigint references public.waiting_list (id) on delete set null,
  state text not null default 'pending'
    check (state in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  attempts integer not null default 0,
  detail text,
  changed_at timestamptz not null default now(),
  primary key (campaign, address_hash)
);
-- The next pending row of a campaign, in signup order, without scanning the others.
create index notify_journal_waiting_idx on private.notify_journal (campaign, state, signup_id);
create index notify_journal_signup_idx on private.notify_journal (signup_id);
comment on table private.notify_journal is
  'Who was sent which campaign, by keyed hash. detail: the SMTP reply of a failure, address removed.';

revoke all on table private.do_not_email, private.notify_journal
  from public, anon, authenticated, service_role;
revoke all on table private.mailable_signups from public, anon, authenticated, service_role;

reset lock_timeout;
reset statement_timeout;

-- The waiting list. Visitors write here directly with the public key, so this table's
-- constraints, grants and policy are the only guard.

create table public.waiting_list (
  id bigint generated always as identity primary key,
  email text not null,
  created_at timestamptz not null default now(),

  -- docs/product.md §5, the client's EMAIL_SHAPE /^[^\s@]+@[^\s@]+\.[^\s@]+$/ split in two equivalent halves.
  -- The bracket is exactly JavaScript's \s: PostgreSQL's own \s is ASCII-only.
  constraint waiting_list_email_format check (
    email ~ '^[^@]+@[^@]+\.[^@]+$'
    and email !~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
  ),
  -- RFC 5321's limit, counted in characters like the client's EMAIL_MAX_LENGTH.
  constraint waiting_list_email_length check (char_length(email) <= 254)
);

-- One signup per address whatever its letter case (lower() folds Unicode under C.UTF-8, Supabase's locale).
create unique index waiting_list_email_lower_key on public.waiting_list (lower(email));

comment on table public.waiting_list is
  'Addresses to notify at launch. The public key may add one; nobody but service_role may read the list.';
comment on column public.waiting_list.id is 'Generated; never set by a client.';
comment on column public.waiting_list.email is
  'As typed (trimmed by the page). Shape and length enforced by checks; unique on lower(email).';
comment on column public.waiting_list.created_at is 'When the visitor signed up; always the insert''s time.';
comment on index public.waiting_list_email_lower_key is 'Refuses a second signup of an address in any letter case.';

-- Older projects grant everything to the API roles by default: start from nothing.
alter table public.waiting_list enable row level security;
revoke all on table public.waiting_list from public, anon, authenticated, service_role;
revoke all on sequence public.waiting_list_id_seq from public, anon, authenticated, service_role;

-- The public may name the email column and nothing else. Without SELECT the list cannot be
-- read or counted; PostgREST's default "return=minimal" insert needs no SELECT.
grant insert (email) on table public.waiting_list to anon, authenticated;
-- Export (service_role bypasses row-level security).
grant select on table public.waiting_list to service_role;

-- Rows are fresh signups: nobody may backdate or postdate one. The grants already keep
-- created_at out of reach; the policy states the invariant should a later grant widen them.
-- The address rules stay CHECK constraints: a policy runs first and would hide their 23514.
create policy waiting_list_fresh_signup on public.waiting_list
  for insert to anon, authenticated
  with check (created_at = now());
comment on policy waiting_list_fresh_signup on public.waiting_list is
  'Visitors may add a signup stamped with the current time, and nothing else.';

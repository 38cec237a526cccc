-- One mailbox, one address: the format check also refuses a double quote anywhere (a quoted local
-- part, "ada"@example.com, is the mailbox ada@example.com) and a domain ending in a dot
-- (ada@example.com. is ada@example.com). The client's EMAIL_SHAPE refuses the same
-- (src/features/waitlist/email.ts, held to the same examples by supabase/tests/email-shape.test.ts).
--
-- private.email_key and every stored keyed hash stay as they were, so every do-not-email entry and
-- send-journal row still matches. Rows signed up before this migration that the new rule refuses
-- stay as typed: the check is added NOT VALID (it holds for every new or changed row). The owner
-- finds them with: select email from public.waiting_list where not private.email_format_ok(email);

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

-- THE address rule (docs/product.md §5 and the README's decisions), for the table's check and for
-- any later code that must judge an address before storing it: text, @, text, a dot, text; no
-- JavaScript \s (PostgreSQL's own \s is ASCII-only, so the bracket lists it); no double quote; no
-- final dot; nothing that draws nothing: control (Cc), invisible formatting (Cf) and
-- Default_Ignorable_Code_Point characters, U+2800, U+16FE4 and U+1D159, listed as ranges because
-- PostgreSQL's regular expressions have no \p{...} (Unicode 17.0; U+0000 cannot be stored in text
-- at all). The length is a check of its own (waiting_list_email_length).
create function private.email_format_ok(address text) returns boolean
  language sql immutable parallel safe strict
  set search_path = ''
  as $$
  select address ~ '^[^@"]+@[^@"]+\.[^@"]*[^@".]$'
     and address !~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
     and address !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U00016fe4\U0001bca0-\U0001bca3\U0001d159\U0001d173-\U0001d17a\U000e0000-\U000e0fff]'
$$;
comment on function private.email_format_ok(text) is
  'Whether an address meets the list''s format rule (without the length): the check waiting_list_email_format.';
revoke all on function private.email_format_ok(text) from public;
-- A check runs its functions as the inserting role. Without USAGE on schema private the API roles
-- still cannot call it by name.
grant execute on function private.email_format_ok(text) to anon, authenticated;

alter table public.waiting_list
  drop constraint waiting_list_email_format,
  add constraint waiting_list_email_format check (private.email_format_ok(email)) not valid;

reset lock_timeout;
reset statement_timeout;

-- Addresses hold no control characters (Unicode Cc) and no invisible formatting characters
-- (Unicode Cf: soft hyphen, zero-width space, bidirectional overrides and isolates, byte-order
-- mark, ...): they make one address look like another, or like nothing, in every tool that
-- shows the list. The client's EMAIL_SHAPE (src/features/waitlist/email.ts) refuses the same
-- characters with /\p{Cc}|\p{Cf}/u; PostgreSQL's regular expressions have no \p{...}, so the
-- ranges are listed (Unicode 17.0, as Node 20.20 knows it). supabase/tests/email-shape.test.ts
-- proves both refuse exactly the same code points, all 1,114,111 of them.
--
-- Same constraint name as before, so the API's answer (400, 23514, "waiting_list_email_format")
-- and the mock's stay as they were. Adding it checks the rows already listed: should one hold
-- such a character, this migration fails and names the constraint; find them with
--   select id, email from public.waiting_list where email ~ '[\u0001-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]';

alter table public.waiting_list drop constraint waiting_list_email_format;
alter table public.waiting_list add constraint waiting_list_email_format check (
  email ~ '^[^@]+@[^@]+\.[^@]+$'
  -- JavaScript's \s: PostgreSQL's own \s is ASCII-only.
  and email !~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
  -- Unicode Cc and Cf (U+0000 cannot be stored in text at all).
  and email !~ '[\u0001-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]'
);

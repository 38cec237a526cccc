-- The export the owner opens in a spreadsheet. A cell starting with = + - @ (or a tab or a
-- carriage return) is a formula to Excel, LibreOffice and Google Sheets, and '=1+2@example.com'
-- is a valid address. OWASP's CSV-injection advice: prefix such a cell with a single quote.
-- The stored address stays as typed; only the export is escaped.
-- The view below is gone (20261125100200_one_export_path.sql): it listed do-not-email addresses
-- too. The export is `npm run waitlist -- export` (docs/operations.md); csv_cell() stays for it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

create function private.csv_cell(value text) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select case when value ~ '^[=+\-@\t\r]' then '''' || value else value end $$;
comment on function private.csv_cell(text) is
  'A spreadsheet-safe cell: text starting with = + - @ tab or CR gets a leading single quote (OWASP CSV injection).';
revoke all on function private.csv_cell(text) from public;

-- security_invoker: the view reads public.waiting_list with the privileges of whoever queries
-- it, not of its owner, so it can never hand the list to a role that may not read the table
-- itself.
create view private.waiting_list_export with (security_invoker = true) as
  select
    private.csv_cell(email) as email,
    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_utc
  from public.waiting_list
  order by created_at, id;
comment on view private.waiting_list_export is
  'The list for spreadsheets, oldest first; every address through private.csv_cell().';

reset lock_timeout;
reset statement_timeout;

-- The export the owner opens in a spreadsheet. A cell starting with = + - @ (or a tab or a
-- carriage return) is a formula to Excel, LibreOffice and Google Sheets, and '=1+2@example.com'
-- is a valid address. OWASP's CSV-injection advice: prefix such a cell with a single quote.
-- The stored address stays as typed; only the export is escaped. Run from a shell:
--   psql "$DATABASE_URL" -c "\copy (select * from private.waiting_list_export) to 'waiting-list.csv' csv header"

-- Each migration runs in one transaction; fail fast rather than queue behind a live lock.
set local lock_timeout = '5s';
set local statement_timeout = '60s';

create function private.csv_cell(value text) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select case when value ~ '^[=+\-@\t\r]' then '''' || value else value end $$;
comment on function private.csv_cell(text) is
  'A spreadsheet-safe cell: text starting with = + - @ tab or CR gets a leading single quote (OWASP CSV injection).';
revoke all on function private.csv_cell(text) from public;

-- security_invoker: the view reads public.waiting_list with the privileges of whoever queries
-- it, not of its owner, so it can never hand the list to a role that may not read the table
-- itself. The owner (postgres) owns the table and the function, so the \copy above works as is.
create view private.waiting_list_export with (security_invoker = true) as
  select
    private.csv_cell(email) as email,
    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_utc
  from public.waiting_list
  order by created_at, id;
comment on view private.waiting_list_export is
  'The list for spreadsheets, oldest first; every address through private.csv_cell().';

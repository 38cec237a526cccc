-- One export path: the owner's command (`npm run waitlist -- export`, docs/operations.md), which
-- leaves out the do-not-email list. The view private.waiting_list_export listed every signup,
-- suppressed or not, so it goes. private.csv_cell() stays: `export --for spreadsheet` uses it.

-- A migration waits at most this long for a lock, and runs at most this long, then fails whole
-- (session-level, reset at the end: see 20261125100000_last_openings.sql).
set lock_timeout = '5s';
set statement_timeout = '60s';

drop view private.waiting_list_export;

reset lock_timeout;
reset statement_timeout;

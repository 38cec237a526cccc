-- No column that holds a key is sampled by ANALYZE (supabase/security.md, "Sealed at rest").
-- pg_statistic, the catalog where ANALYZE keeps each column's sample (most common values,
-- histogram bounds), is written to the WAL, and its file keeps a replaced sample as a dead row
-- version. The address column and the hourly keys' columns are kept out already
-- (20261126200000_hourly_seal_keys.sql); these are the other columns that hold a key. A table of
-- one row gives no sample (that takes a repeated value or two different ones); the guard's daily
-- secrets gave one, which goes too: a change of a column's type, even to the same type (no
-- rewrite), drops its statistics (PostgreSQL's ATExecAlterColumnType calls RemoveStatistics;
-- supabase/tests/before-keys-init.test.ts finds no sample of any such column).
-- The dropped sample's old row versions stay in pg_statistic's file until it is rewritten:
-- `waitlist keys init` does that (cli/seal/statistics.ts), or by hand as the database's owner,
-- `vacuum full pg_catalog.pg_statistic;`.

set lock_timeout = '5s';
set statement_timeout = '60s';

alter table private.owner_secret alter column secret set statistics 0;
alter table private.seal_key
  alter column chain_key set statistics 0,
  alter column encryption_key set statistics 0,
  alter column authentication_key set statistics 0;
alter table private.signup_secrets alter column secret set statistics 0;
-- Same type: no rewrite, and nothing changes but the dropped sample (of past days' secrets); the
-- ACCESS EXCLUSIVE lock on this small table is held for a moment (a signup waits that long).
-- squawk-ignore changing-column-type
alter table private.signup_secrets alter column secret type bytea;

reset lock_timeout;
reset statement_timeout;

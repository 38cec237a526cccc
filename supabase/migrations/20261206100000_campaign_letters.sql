-- A campaign remembers its letter: notify records it at the campaign's first real send, a later
-- run sends it again from --campaign alone, and a changed letter is refused once anyone has it
-- (cli/commands/notify/campaign.ts). Nothing personal: the owner's sender and subject, and each body's file
-- and sha256 digest.

set lock_timeout = '5s';
set statement_timeout = '60s';

create table if not exists private.notify_campaigns (
  campaign text primary key,
  letter jsonb not null,
  recorded_at timestamptz not null default now()
);
comment on table private.notify_campaigns is
  'Each campaign''s letter as notify recorded it: {from, replyTo, subject, text: {file, sha256}, html?}.';
revoke all on table private.notify_campaigns from public, anon, authenticated, service_role;

reset lock_timeout;
reset statement_timeout;

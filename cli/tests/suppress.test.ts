/**
 * `suppress --file` with the bounce and complaint exports of SendGrid (Suppressions, "Download CSV":
 * an `email` column) and Mailgun (Suppressions: an `address` column), in their column order and
 * with their other columns: the right addresses go on the do-not-email list, and the run says how
 * many of them signed up and how many rows were not addresses. A file with no known column is
 * refused and changes nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressesInFile } from '../suppress';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { seed } from './seed';

const db = useOwnDatabase('cli_suppress');
const folder = mkdtempSync(join(tmpdir(), 'suppress-'));
const SIGNED_UP = ['sg-bounce@example.com', 'sg-spam@example.com', 'mg-bounce@example.com', 'mg-complaint@example.com'];
beforeAll(() => seed(db.owner, [...SIGNED_UP, 'stays@example.com']));

function file(name: string, text: string): string {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
}

/** The reason each address is listed with, or null. */
async function listed(addresses: string[]): Promise<(string | null)[]> {
  const { rows } = await db.owner.query<{ reason: string | null }>(
    `select (select reason from private.do_not_email d where d.address_hash = private.address_hash(a)) as reason
     from unnest($1::text[]) with ordinality as given(a, n) order by n`,
    [addresses],
  );
  return rows.map((row) => row.reason);
}

const suppress = async (path: string, reason: string) => {
  const run = await waitlist(['suppress', '--file', path, '--reason', reason, '--json']);
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout);
};

describe('suppress --file with a provider export', () => {
  it("reads SendGrid's bounces and spam reports (email column), skipping and counting the rows without an address", async () => {
    const bounces = file(
      'sendgrid-bounces.csv',
      'email,created,status,reason\r\n' +
        'SG-Bounce@Example.com,2026-11-20 08:34:48,5.1.1,"550 5.1.1 The email account that you tried to reach ' +
        'does not exist. Please try double-checking the recipient\'s email address for typos, or unnecessary spaces."\r\n' +
        'never-joined@example.org,2026-11-21 10:02:11,5.1.1,"550 5.1.1 <never-joined@example.org>: Recipient address rejected"\r\n' +
        '#02232014,2026-11-21 10:02:12,5.0.0,unknown\r\n',
    );
    expect(await suppress(bounces, 'bounced')).toEqual({
      suppressed: 2,
      alreadyListed: 0,
      signedUp: 1,
      notAddresses: 1,
    });
    const spam = file(
      'sendgrid-spam-reports.csv',
      'email,created,ip\nsg-spam@example.com,2026-11-22 17:40:01,192.0.2.7\n',
    );
    expect(await suppress(spam, 'unsubscribed')).toEqual({
      suppressed: 1,
      alreadyListed: 0,
      signedUp: 1,
      notAddresses: 0,
    });
    expect(await listed(['sg-bounce@example.com', 'never-joined@example.org', 'sg-spam@example.com'])).toEqual([
      'bounced',
      'bounced',
      'unsubscribed',
    ]);
  });

  it("reads Mailgun's bounces and complaints (address column) and says how many signed up", async () => {
    const bounces = file(
      'mailgun-bounces.csv',
      'address,code,error,created_at\n' +
        'mg-bounce@example.com,550,"5.1.1 The email account that you tried to reach does not exist.\n' +
        'Please check the address.","Fri, 20 Nov 2026 08:34:48 UTC"\n' +
        'sg-bounce@example.com,550,No such mailbox,"Sat, 21 Nov 2026 09:00:00 UTC"\n',
    );
    expect(await suppress(bounces, 'bounced')).toEqual({
      suppressed: 1,
      alreadyListed: 1,
      signedUp: 2,
      notAddresses: 0,
    });
    const complaints = file(
      'mailgun-complaints.csv',
      'address,created_at\nmg-complaint@example.com,"Sun, 22 Nov 2026 12:00:00 UTC"\n',
    );
    const text = await waitlist(['suppress', '--file', complaints, '--reason', 'unsubscribed']);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toBe('1 added to the do-not-email list, 0 already on it, 1 on the waiting list.\n');
    expect(await listed(['mg-bounce@example.com', 'mg-complaint@example.com', 'stays@example.com'])).toEqual([
      'bounced',
      'unsubscribed',
      null,
    ]);
  });

  it('refuses a CSV with no known address column, naming the columns it knows, and lists nothing', async () => {
    const before = await db.owner.query('select count(*)::int as n from private.do_not_email');
    const unknown = file('unknown.csv', 'Recipient,Bounce Type,Bounced At\nstays@example.com,HardBounce,2026-11-20\n');
    const run = await waitlist(['suppress', '--file', unknown, '--reason', 'bounced']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(
      'No email/e-mail/email address/email_address/emailaddress/address column in the header: Recipient,Bounce Type',
    );
    const after = await db.owner.query('select count(*)::int as n from private.do_not_email');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('reads a CSV a spreadsheet saved with semicolons (as European locales do)', () => {
    const file = 'Email;Reason\r\nada@example.com;"550 5.1.1, user unknown"\r\nbob@example.com;complaint\r\n';
    expect(addressesInFile(file)).toEqual({ addresses: ['ada@example.com', 'bob@example.com'], skipped: 0 });
  });
});

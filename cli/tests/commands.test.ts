/**
 * count (--daily too), export, erase and suppress, run as a child process against the seeded test
 * database, sealed first as the owner seals a live one (`keys init`): export opens it with the
 * owner's private key, the other commands need none.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { storedAddresses, storedAs } from '../../supabase/harness/sealed';
import { countRows, useOwnDatabase } from './own-database';
import { keysInit } from './keys-init';
import { waitlist } from './run-cli';
import { seed, seededAddresses } from './seed';
import { utcTimestamp } from '../list/utc.ts';

const db = useOwnDatabase('cli_commands');
let ownerKey = '';
beforeAll(async () => {
  await seed(db.owner);
  const init = await keysInit();
  expect(init.result.code, init.result.stderr).toBe(0);
  ownerKey = init.ownerKey();
  process.env.WAITLIST_OWNER_KEY_FILE = init.keyFile; // the commands' child processes inherit it
});

const UTC = utcTimestamp('created_at');
const strict = (csv: string) =>
  parse(csv, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false });

/** What may be emailed, oldest first, each address opened with the owner's key. */
async function mayEmail() {
  const { rows } = await db.owner.query<{ id: string; at: string }>(
    `select m.id, ${UTC} as at from private.mailable_signups m order by created_at, id`,
  );
  const opened = await storedAddresses(db.owner, ownerKey);
  return rows.map((row) => [opened.get(row.id)!, row.at]);
}

describe('waitlist', () => {
  it('count prints the number of addresses, and JSON with --json', async () => {
    const listed = await countRows(db.owner, 'public.waiting_list');
    expect(await waitlist(['count'])).toMatchObject({ code: 0, stdout: `${listed}\n`, stderr: '' });
    expect(JSON.parse((await waitlist(['count', '--json'])).stdout)).toMatchObject({ addresses: listed });
  });

  it('count --daily prints each UTC day from the first signup to today, empty days too, as CSV with CRLF', async () => {
    await db.owner.query(
      `insert into public.waiting_list (email, created_at) values ('early@example.com', now() - interval '3 days')`,
    );
    const { rows } = await db.owner.query(
      `select to_char(d, 'YYYY-MM-DD') as day,
              (select count(*)::int from public.waiting_list w
               where (w.created_at at time zone 'UTC')::date = d::date) as signups
       from generate_series((select min(created_at at time zone 'UTC')::date from public.waiting_list),
                            (now() at time zone 'UTC')::date, interval '1 day') d order by d`,
    );
    expect(rows.some((r) => r.signups === 0)).toBe(true);
    const { stdout } = await waitlist(['count', '--daily']);
    expect(stdout).toBe(['day,signups', ...rows.map((r) => `${r.day},${r.signups}`)].join('\r\n') + '\r\n');
    expect(JSON.parse((await waitlist(['count', '--daily', '--json'])).stdout)).toEqual(rows);
  });

  it('export is strict RFC 4180 CSV holding every address byte for byte as stored', async () => {
    const { code, stdout, stderr } = await waitlist(['export']);
    expect(code).toBe(0);
    expect(stderr).toBe(''); // nothing is on the do-not-email list yet: nothing left out to mention
    const [header, ...records] = strict(stdout);
    expect(header).toEqual(['email', 'signed_up_at']);
    expect(records).toEqual(await mayEmail());
    for (const address of seededAddresses()) expect(records.map((r: string[]) => r[0])).toContain(address);
    expect(stdout).toContain('\r\n"a,comma@example.com",');
    expect(stdout).toContain('\r\n-dash@example.com,');
  });

  it('erase finds a pasted address (spaces, another case), deletes it everywhere; export leaves it out', async () => {
    await seed(db.owner, ['Erase.Me@Example.COM']);
    const refused = await waitlist(['erase', 'erase.me@EXAMPLE.com']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('add --yes');

    const { code, stdout, stderr } = await waitlist(['erase', ' erase.me@EXAMPLE.com ', '--yes']); // pasted
    expect(code).toBe(0);
    // Sealed: the command needs no key, so it names the address as typed.
    expect(stdout).toContain('Removed erase.me@EXAMPLE.com (sealed: as you typed it)');
    expect(stderr).toContain('email tool');
    const left = await db.owner.query(
      `select (select count(*)::int from private.signup_addresses
               where address_hash = private.address_hash('erase.me@example.com')) as keys,
              (select reason from private.do_not_email
               where address_hash = private.address_hash('ERASE.ME@example.com')) as dne`,
    );
    expect(left.rows[0]).toEqual({ keys: 0, dne: 'erased' });
    expect(await storedAs(db.owner, 'erase.me@example.com', ownerKey)).toEqual([]);
    expect((await waitlist(['export', '--all'])).stdout.toLowerCase()).not.toContain('erase.me@');

    // Signing up again is a new consent: the new signup is exported.
    await seed(db.owner, ['erase.me@example.com']);
    expect((await waitlist(['export'])).stdout).toContain('\r\nerase.me@example.com,');
  });

  it("suppress takes addresses, a reply's From line, an unsubscribe export; export then leaves them out", async () => {
    await seed(db.owner, ['unsub-1@example.com', 'unsub-2@example.com', 'bounce-1@example.com']);
    const file = join(mkdtempSync(join(tmpdir(), 'suppress-')), 'unsubscribed.csv');
    writeFileSync(file, 'Email Address,date\r\n"UNSUB-2@example.com",2026-11-01\r\n');
    const args = await waitlist(['suppress', 'Unsub <Unsub-1@Example.com> ', '--reason', 'unsubscribed', '--json']);
    expect(JSON.parse(args.stdout)).toEqual({ onTheList: 1, alreadySuppressed: 0, notOnTheList: 0 });
    expect((await waitlist(['suppress', '--file', file])).stdout).toContain('1 on the waiting list, now suppressed');
    writeFileSync(file, 'bounce-1@example.com\n\n');
    expect((await waitlist(['suppress', '--file', file, '--reason', 'bounced'])).code).toBe(0);
    const exported = await waitlist(['export']);
    for (const gone of ['unsub-1@', 'unsub-2@', 'bounce-1@']) expect(exported.stdout).not.toContain(gone);
    expect(exported.stderr).toContain('Left out: 3 addresses on the do-not-email list (add --all to include them).');
    expect((await waitlist(['export', '--all'])).stdout).toContain('unsub-1@example.com');
    const misplaced = await waitlist(['suppress', '--', '-dash@example.com', '--reason', 'bounced']);
    expect(misplaced).toMatchObject({ code: 2, stdout: '' });
    expect(misplaced.stderr).toContain('Not addresses (options go before "--"): "--reason", "bounced"');
  });

  it('says what is missing when DATABASE_URL is not set (exit 2)', async () => {
    const { code, stderr } = await waitlist(['count'], { DATABASE_URL: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('DATABASE_URL is not set');
  });
});

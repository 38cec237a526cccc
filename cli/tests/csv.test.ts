/**
 * The export's CSV writer on rows as PostgreSQL's COPY … CSV sends them (cut into small chunks, so
 * rows and characters straddle them): quoting as COPY … CSV does, and for a spreadsheet every cell
 * quoted and every formula start escaped (OWASP). A list not sealed is written by PostgreSQL
 * itself: the same bytes.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { listCsv } from '../commands/export/csv';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';

const AT = '2026-11-25T10:00:00Z';

/** The CSV of these plaintext addresses (rows stored before keys init: no seal to open). */
async function csvOf(addresses: string[], spreadsheet: boolean) {
  // id, hour_key_id, seal, email, signed_up_at, as COPY … CSV writes them (a NULL: an empty cell).
  const copy = Buffer.from(stringify(addresses.map((address, id) => [id, '', '', address, AT])));
  const chunks7 = Array.from({ length: Math.ceil(copy.length / 7) }, (_, i) => copy.subarray(7 * i, 7 * i + 7));
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await pipeline(Readable.from(chunks7), listCsv(null, { spreadsheet }), sink);
  return Buffer.concat(chunks).toString('utf8');
}

const db = useOwnDatabase('cli_csv');

const CELLS = ['=1@x.co', '+1@x.co', '-1@x.co', '@SUM(A1)@x.co', 'x=1@x.co', 'a,b@x.co', 'a"b@x.co', 'jörg@x.co'];

describe('the export as CSV', () => {
  it('quotes only a cell holding a comma or a quote, as COPY does, and keeps every byte', async () => {
    expect(await csvOf(CELLS, false)).toBe(
      'email,signed_up_at\r\n' +
        ['=1@x.co', '+1@x.co', '-1@x.co', '@SUM(A1)@x.co', 'x=1@x.co', '"a,b@x.co"', '"a""b@x.co"', 'jörg@x.co']
          .map((cell) => `${cell},2026-11-25T10:00:00Z\r\n`)
          .join(''),
    );
  });

  it('for a spreadsheet, quotes every cell and escapes each one starting with = + - @', async () => {
    expect(await csvOf(CELLS, true)).toBe(
      'email,signed_up_at\r\n' +
        ["'=1@x.co", "'+1@x.co", "'-1@x.co", "'@SUM(A1)@x.co", 'x=1@x.co', 'a,b@x.co', 'a""b@x.co', 'jörg@x.co']
          .map((cell) => `"${cell}","2026-11-25T10:00:00Z"\r\n`)
          .join(''),
    );
  });

  it('of a list not sealed, written by PostgreSQL, is the same, byte for byte', async () => {
    await db.owner.query('delete from public.waiting_list');
    const listed: string[] = [];
    for (const address of [...CELLS, '\uff1d1@x.co', 'plain@x.co']) {
      try {
        await db.owner.query(`insert into public.waiting_list (email, created_at) values ($1, $2)`, [address, AT]);
        listed.push(address);
      } catch {
        // not an address the list takes
      }
    }
    expect(listed.length).toBeGreaterThan(4);
    expect((await waitlist(['export'])).stdout).toBe(await csvOf(listed, false));
    expect((await waitlist(['export', '--for', 'spreadsheet'])).stdout).toBe(`\ufeff${await csvOf(listed, true)}`);
  });
});

/**
 * The list as CSV, written by csv-stringify from binary COPY rows (csvSource): RFC 4180 with CRLF, a
 * cell quoted only when it holds a comma, a quote, CR or LF (as PostgreSQL's COPY … CSV does), or
 * for a spreadsheet every cell quoted and each one starting as a formula escaped (OWASP). A sealed
 * address is opened (open.ts), a plaintext one (before `keys init`) written as stored.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { CopyRows } from './copy-binary.ts';
import type { Opener } from './open.ts';
import { utcTimestamp } from '../list/utc.ts';

export type CsvOptions = {
  spreadsheet: boolean;
  /** Starts with the UTF-8 byte-order mark, by which spreadsheets recognise UTF-8 (else they read Windows-1252). */
  byteOrderMark?: boolean;
  onRows?: (rows: number) => void;
  /** Nothing is written before it resolves (the hour keys being unwrapped), nothing at all if it rejects. */
  after?: Promise<unknown>;
};

export const CSV_HEADER = 'email,signed_up_at\r\n';

/** The COPY that feeds sealedCsv, from a relation with id, hour_key_id, seal, email and created_at. */
export const csvSource = (from: string) =>
  `copy (select id, hour_key_id, seal, email, ${utcTimestamp('created_at')}
         from ${from} order by created_at, id) to stdout with (format binary)`;

/** The columns of csvSource, in order. */
const [ID, HOUR_KEY_ID, SEAL, EMAIL, SIGNED_UP_AT] = [0, 1, 2, 3, 4];

/**
 * Batches of binary COPY rows in, CSV out, each row opened and written in turn; counts rows that
 * have neither an address nor a seal in `unreadable`.
 */
export function sealedCsv(opener: Opener | null, options: CsvOptions): Transform & { unreadable: number } {
  let header: string | undefined = (options.byteOrderMark ? '\ufeff' : '') + CSV_HEADER;
  const ready = options.after ?? Promise.resolve();
  const cells = { record_delimiter: 'windows', quoted: options.spreadsheet, escape_formulas: options.spreadsheet };

  /** The address of a row: as stored, or opened; undefined when it has neither. */
  function address(rows: CopyRows, row: number): string | undefined {
    const email = rows.field(row, EMAIL);
    if (email) return email.toString('utf8');
    const seal = rows.field(row, SEAL);
    if (!seal) return undefined;
    if (!opener) throw new Error('Sealed rows, but no owner key is installed.');
    const id = rows.field(row, ID)!.readBigInt64BE();
    const hourKeyId = rows.field(row, HOUR_KEY_ID)?.readBigInt64BE() ?? -1n;
    return opener.openOne({ id, hourKeyId, seal }).toString('utf8');
  }

  /** The CSV of a batch, after the header if it is the first. */
  function csvOf(rows: CopyRows): string {
    const records: [string, string][] = [];
    for (let row = 0; row < rows.count; row += 1) {
      const email = address(rows, row);
      if (email === undefined) result.unreadable += 1;
      else records.push([email, rows.field(row, SIGNED_UP_AT)!.toString('latin1')]);
    }
    options.onRows?.(records.length);
    const csv = (header ?? '') + stringify(records, cells);
    header = undefined;
    return csv;
  }

  /** Passes what `make` returns to `done` once `ready` has resolved; its rejection or a throw fails instead. */
  const whenReady = (make: () => string | undefined, done: TransformCallback) =>
    void ready.then(make).then((out) => done(null, out), done);

  const csv = new Transform({
    writableObjectMode: true,
    writableHighWaterMark: 1,
    transform: (rows: CopyRows, _encoding, done: TransformCallback) => whenReady(() => csvOf(rows), done),
    flush: (done: TransformCallback) => whenReady(() => header, done), // an empty list: the header alone
  });
  const result = Object.assign(csv, { unreadable: 0 });
  return result;
}

/**
 * The list as CSV (RFC 4180, CRLF), built from binary COPY rows (id, step, key_id, sealed, email,
 * signed_up_at) as bytes: a sealed address is opened (open.ts) and written byte for byte,
 * a plaintext one (before `keys init`) as stored. Quotes as PostgreSQL's COPY … CSV does: only a
 * cell holding a comma, a quote, CR or LF, or every cell for a spreadsheet.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { CopyRows } from './copy-binary.ts';
import type { Opener } from './open.ts';
import { utcTimestamp } from '../list/utc.ts';

export type CsvOptions = {
  spreadsheet: boolean;
  /** Starts with the UTF-8 byte-order mark, by which spreadsheets recognise UTF-8 (else they read Windows-1252). */
  byteOrderMark?: boolean;
  onRows?: (rows: number) => void;
  /** Nothing is written before it resolves (the hourly keys being unwrapped), nothing at all if it rejects. */
  after?: Promise<unknown>;
};

export const CSV_HEADER = 'email,signed_up_at\r\n';
const BOM = '\ufeff';

/** The COPY that feeds sealedCsv, from a relation with id, step, key_id, sealed, email and created_at. */
export const csvSource = (from: string) =>
  `copy (select id, step, key_id, sealed, email, ${utcTimestamp('created_at')}
         from ${from} order by created_at, id) to stdout with (format binary)`;

/** The columns of csvSource, in order. */
const ID = 0;
const STEP = 1;
const KEY_ID = 2;
const SEALED = 3;
const EMAIL = 4;
const SIGNED_UP_AT = 5;

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

// OWASP CSV injection: a cell starting with = + - @ tab or CR is a formula to a spreadsheet.
const isFormulaStart = (byte: number) =>
  byte === 0x3d || byte === 0x2b || byte === 0x2d || byte === 0x40 || byte === 0x09 || byte === CR;

function needsQuotes(source: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const byte = source[i];
    if (byte === COMMA || byte === QUOTE || byte === CR || byte === LF) return true;
  }
  return false;
}

/** Writes the cell source[from … to) into out at `at`; returns where it ends. */
function writeCell(
  out: Buffer,
  at: number,
  source: Buffer,
  from: number,
  to: number,
  quote: boolean,
  escapeFormula: boolean,
): number {
  const quoted = quote || needsQuotes(source, from, to);
  if (!quoted) return at + source.copy(out, at, from, to);
  out[at++] = QUOTE;
  if (escapeFormula && isFormulaStart(source[from])) out[at++] = 0x27; // '
  for (let i = from; i < to; i += 1) {
    if (source[i] === QUOTE) out[at++] = QUOTE;
    out[at++] = source[i];
  }
  out[at++] = QUOTE;
  return at;
}

/**
 * Batches of binary COPY rows in, CSV bytes out, each row opened and written in turn; counts rows
 * that have neither an address nor a seal in `unreadable`.
 */
export function sealedCsv(opener: Opener | null, options: CsvOptions): Transform & { unreadable: number } {
  let header: Buffer | undefined = Buffer.from((options.byteOrderMark ? BOM : '') + CSV_HEADER);
  let waitFor = options.after;

  /** The CSV of a batch, after the header if it is the first. */
  function csvOf(rows: CopyRows): Buffer {
    const { data } = rows;
    let size = header?.length ?? 0;
    for (let row = 0; row < rows.count; row += 1) {
      const cell = rows.length(row, EMAIL) === -1 ? rows.length(row, SEALED) : rows.length(row, EMAIL);
      size += 2 * Math.max(cell, 0) + rows.length(row, SIGNED_UP_AT) + 8;
    }
    const out = Buffer.allocUnsafe(size);
    let at = header ? header.copy(out) : 0;
    header = undefined;
    let written = 0;
    for (let row = 0; row < rows.count; row += 1) {
      if (rows.length(row, EMAIL) !== -1) {
        const start = rows.start(row, EMAIL);
        at = writeCell(out, at, data, start, start + rows.length(row, EMAIL), options.spreadsheet, options.spreadsheet);
      } else if (rows.length(row, SEALED) !== -1) {
        if (!opener) throw new Error('Sealed rows, but sealing was never started here.');
        const address = opener.openOne({
          id: data.readBigInt64BE(rows.start(row, ID)),
          step: rows.length(row, STEP) === -1 ? null : data.readInt32BE(rows.start(row, STEP)),
          keyId: rows.length(row, KEY_ID) === -1 ? null : data.readBigInt64BE(rows.start(row, KEY_ID)),
          sealed: rows.field(row, SEALED)!,
        });
        at = writeCell(out, at, address, 0, address.length, options.spreadsheet, options.spreadsheet);
      } else {
        result.unreadable += 1;
        continue;
      }
      out[at++] = COMMA;
      const signedUp = rows.start(row, SIGNED_UP_AT);
      at = writeCell(out, at, data, signedUp, signedUp + rows.length(row, SIGNED_UP_AT), options.spreadsheet, false);
      out[at++] = CR;
      out[at++] = LF;
      written += 1;
    }
    options.onRows?.(written);
    return out.subarray(0, at);
  }

  /** Passes what `make` returns to `done`, once options.after has resolved; its rejection or a throw fails instead. */
  function whenReady(make: () => Buffer | undefined, done: TransformCallback): void {
    const run = () => {
      let out: Buffer | undefined;
      try {
        out = make();
      } catch (error) {
        return done(error as Error);
      }
      done(null, out);
    };
    if (!waitFor) return run();
    waitFor.then(() => {
      waitFor = undefined;
      run();
    }, done);
  }

  const csv = new Transform({
    writableObjectMode: true,
    writableHighWaterMark: 1,
    transform: (rows: CopyRows, _encoding, done: TransformCallback) => whenReady(() => csvOf(rows), done),
    flush: (done: TransformCallback) => whenReady(() => header, done), // an empty list: the header alone
  });
  const result = Object.assign(csv, { unreadable: 0 });
  return result;
}

/**
 * The list as CSV (RFC 4180, CRLF), built from binary COPY rows (id, step, key_id, sealed, email,
 * signed_up_at) as bytes: a sealed address is opened (open.ts) and written byte for byte,
 * a plaintext one (before `keys init`) as stored. Quotes as PostgreSQL's COPY … CSV does: only a
 * cell holding a comma, a quote, CR or LF, or every cell for a spreadsheet.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { Fields } from './copy-binary.ts';
import type { Opener, SealedRow } from './open.ts';
import { utcTimestamp } from '../list/utc.ts';

export type CsvOptions = {
  spreadsheet: boolean;
  /** Starts with the UTF-8 byte-order mark, by which spreadsheets recognise UTF-8 (else they read Windows-1252). */
  byteOrderMark?: boolean;
  onRows?: (rows: number) => void;
};

export const CSV_HEADER = 'email,signed_up_at\r\n';
const BOM = '\ufeff';

/** The COPY that feeds sealedCsv, from a relation with id, step, key_id, sealed, email and created_at. */
export const csvSource = (from: string) =>
  `copy (select id, step, key_id, sealed, email, ${utcTimestamp('created_at')}
         from ${from} order by created_at, id) to stdout with (format binary)`;

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

// OWASP CSV injection: a cell starting with = + - @ tab or CR is a formula to a spreadsheet.
const isFormulaStart = (byte: number) =>
  byte === 0x3d || byte === 0x2b || byte === 0x2d || byte === 0x40 || byte === 0x09 || byte === CR;

function needsQuotes(cell: Buffer): boolean {
  for (let i = 0; i < cell.length; i += 1) {
    const byte = cell[i];
    if (byte === COMMA || byte === QUOTE || byte === CR || byte === LF) return true;
  }
  return false;
}

function writeCell(out: Buffer, at: number, cell: Buffer, quote: boolean, escapeFormula: boolean): number {
  const quoted = quote || needsQuotes(cell);
  if (!quoted) return at + cell.copy(out, at);
  out[at++] = QUOTE;
  if (escapeFormula && isFormulaStart(cell[0])) out[at++] = 0x27; // '
  for (let i = 0; i < cell.length; i += 1) {
    if (cell[i] === QUOTE) out[at++] = QUOTE;
    out[at++] = cell[i];
  }
  out[at++] = QUOTE;
  return at;
}

/** Rows of binary COPY in, CSV bytes out; counts rows that have neither an address nor a seal in `unreadable`. */
export function sealedCsv(opener: Opener | null, options: CsvOptions): Transform & { unreadable: number } {
  const csv = new Transform({
    writableObjectMode: true,
    writableHighWaterMark: 1,
    transform(rows: Fields[], _encoding, done: TransformCallback) {
      const sealed: SealedRow[] = [];
      for (const [id, step, keyId, seal, email] of rows) {
        if (email === null && seal !== null)
          sealed.push({
            id: id!.readBigInt64BE(),
            step: step?.readInt32BE() ?? null,
            keyId: keyId?.readBigInt64BE() ?? null,
            sealed: seal,
          });
      }
      if (sealed.length && !opener) return done(new Error('Sealed rows, but sealing was never started here.'));
      let opened: Buffer[];
      try {
        opened = sealed.length ? opener!.open(sealed) : [];
      } catch (error) {
        return done(error as Error);
      }
      let size = 0;
      for (const row of rows) size += 2 * (row[3]?.length ?? row[4]?.length ?? 0) + row[5]!.length + 8;
      const out = Buffer.allocUnsafe(size);
      let at = 0;
      let next = 0;
      let written = 0;
      for (const [, , , seal, email, signedUp] of rows) {
        const address = email ?? (seal ? opened[next++] : null);
        if (!address) {
          result.unreadable += 1;
          continue;
        }
        at = writeCell(out, at, address, options.spreadsheet, options.spreadsheet);
        out[at++] = COMMA;
        at = writeCell(out, at, signedUp!, options.spreadsheet, false);
        out[at++] = CR;
        out[at++] = LF;
        written += 1;
      }
      options.onRows?.(written);
      done(null, out.subarray(0, at));
    },
  });
  const result = Object.assign(csv, { unreadable: 0 });
  csv.push((options.byteOrderMark ? BOM : '') + CSV_HEADER);
  return result;
}

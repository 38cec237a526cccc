/**
 * The list as CSV: RFC 4180 with CRLF, quoted only where needed; for a spreadsheet every cell quoted and formulas
 * escaped (OWASP). Read from PostgreSQL's CSV, written by csv-stringify, each seal opened. No cell holds a line end
 * (the address rule refuses CR and LF).
 */
import { Transform } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Opener } from '../../seal/open.ts';
import { utcTimestamp } from '../../list/utc.ts';

type CsvOptions = {
  spreadsheet: boolean;
  byteOrderMark?: boolean; // by which spreadsheets recognise UTF-8 (else they read Windows-1252)
  onRows?: (rows: number) => void;
};

/** What starts a formula in a spreadsheet, full-width forms included. */
const formula = /^[-=+@\t\r\uff1d\uff0b\uff0d\uff20]/;
const LF = 0x0a;

/** How much of PostgreSQL's CSV is parsed and pushed at once: whole lines within 32 KB (partEnd). */
const PART = 32_768;

/** Where the part of `lines` that starts at `from` ends: after its last line end within PART bytes, else at the end. */
function partEnd(lines: Buffer, from: number) {
  if (from + PART >= lines.length) return lines.length;
  const end = lines.lastIndexOf(LF, from + PART) + 1;
  return end > from ? end : lines.length;
}

/** The COPY that feeds listCsv: PostgreSQL's CSV of id, hour_key_id, seal (base64 on one line), email, signed_up_at. */
export const listCsvSource = (from: string) =>
  `copy (select id, hour_key_id, translate(encode(seal, 'base64'), E'\\n', ''), email, ${utcTimestamp('created_at')}
         from ${from} order by created_at, id) to stdout with (format csv)`;

/**
 * listCsvSource's CSV in (csv-parse), the list's CSV out; counts rows with neither an address nor a seal in
 * `unreadable`. Nothing is written before `after` resolves, nothing at all if it rejects.
 */
export function listCsv(opener: Opener | null, options: CsvOptions & { after?: Promise<unknown> }) {
  let header: string | undefined = `${options.byteOrderMark ? '\ufeff' : ''}email,signed_up_at\r\n`;
  let rest: Buffer = Buffer.alloc(0);
  const ready = options.after ?? Promise.resolve();
  const cells = { record_delimiter: 'windows', quoted: options.spreadsheet } as const;

  /** The address of a row: as stored, or opened; undefined when it has neither. */
  function address([id, hourKeyId, seal, email]: string[]) {
    if (email || !seal) return email || undefined;
    if (!opener) throw new Error('Sealed rows, but no owner key is installed.');
    const row = { id: BigInt(id), hourKeyId: BigInt(hourKeyId || -1), seal: Buffer.from(seal, 'base64') };
    return opener.openOne(row).toString('utf8');
  }

  /**
   * The CSV of whole lines, 32 KB of them at a time, pushed as made: few rows alive at once, so V8 frees them young.
   */
  function write(stream: Transform, lines: Buffer) {
    let from = 0;
    while (from < lines.length) {
      const to = partEnd(lines, from);
      const records: [string, string][] = [];
      for (const row of parse(lines.toString('utf8', from, to)) as string[][]) {
        const email = address(row);
        if (email === undefined) {
          result.unreadable += 1;
        } else {
          records.push([options.spreadsheet && formula.test(email) ? `'${email}` : email, row[4]]);
        }
      }
      options.onRows?.(records.length);
      stream.push((header ?? '') + stringify(records, cells));
      header = undefined;
      from = to;
    }
  }

  const csv = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      const end = data.lastIndexOf(LF) + 1; // never inside a character: UTF-8
      rest = data.subarray(end);
      ready.then(() => write(this, data.subarray(0, end))).then(() => done(), done);
    },
    flush(done) {
      const last = () => {
        write(this, rest);
        if (header) this.push(header); // an empty list: the header alone
      };
      ready.then(last).then(() => done(), done);
    },
  });
  const result = Object.assign(csv, { unreadable: 0 });
  return result;
}

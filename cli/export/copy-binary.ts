/**
 * PostgreSQL's binary COPY format, read as it streams: a Transform from the server's bytes to
 * batches of rows (CopyRows). Binary, not CSV: seals arrive as they are, with no hex to decode. A
 * batch keeps the bytes it came in and where each field lies in them, with no object per field.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */
import { Transform, type TransformCallback } from 'node:stream';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Rows of one batch: per row and column, the field's offset in `data` and its length (-1: NULL). */
export class CopyRows {
  readonly data: Buffer;
  readonly count: number;
  private readonly columns: number;
  private readonly fields: number[];

  constructor(data: Buffer, columns: number, fields: number[]) {
    [this.data, this.columns, this.fields] = [data, columns, fields];
    this.count = fields.length / (2 * columns);
  }

  /** The field's bytes (a view of data), or null. */
  field(row: number, column: number): Buffer | null {
    const at = 2 * (row * this.columns + column);
    const length = this.fields[at + 1];
    return length === -1 ? null : this.data.subarray(this.fields[at], this.fields[at] + length);
  }
}

/** Reads the whole rows in data from `at`: their fields, the column count, and where the rest begins. */
function readRows(data: Buffer, at: number): { fields: number[]; columns: number; rest: number } {
  const fields: number[] = [];
  let columns = 0;
  rows: while (data.length - at >= 2) {
    const count = data.readInt16BE(at);
    if (count === -1) return { fields, columns, rest: data.length }; // the trailer
    if (columns && count !== columns) throw new Error('A COPY row with another number of fields.');
    const rowStart = fields.length;
    let p = at + 2;
    for (let f = 0; f < count; f += 1) {
      const length = data.length - p >= 4 ? data.readInt32BE(p) : undefined;
      if (length === undefined || (length !== -1 && data.length - p - 4 < length)) {
        fields.length = rowStart; // the row goes on in the next chunk
        break rows;
      }
      fields.push(p + 4, length);
      p += 4 + Math.max(length, 0);
    }
    columns = count;
    at = p;
  }
  return { fields, columns, rest: at };
}

export function binaryCopyRows(): Transform {
  let pending: Buffer | null = null;
  let headerRead = false;
  return new Transform({
    readableObjectMode: true,
    readableHighWaterMark: 1,
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const data: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      if (!headerRead) {
        if (data.length < SIGNATURE.length + 8) {
          pending = data;
          return done();
        }
        if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return done(new Error('Not binary COPY data.'));
        at = SIGNATURE.length + 8 + data.readInt32BE(SIGNATURE.length + 4);
        headerRead = true;
      }
      try {
        const { fields, columns, rest } = readRows(data, at);
        pending = rest < data.length ? data.subarray(rest) : null;
        done(null, fields.length ? new CopyRows(data, columns, fields) : undefined);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback) {
      done(pending ? new Error('The COPY data ended mid-row.') : null);
    },
  });
}

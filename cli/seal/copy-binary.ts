/**
 * PostgreSQL's binary COPY format, read as it streams: a Transform from the server's bytes to
 * batches of rows (CopyRows). Binary, not CSV: sealed bytes arrive as they are, with no hex to
 * decode and no quoting to undo. A batch keeps the bytes it came in and where each field lies in
 * them, with no object per row or field: an export of millions of rows leaves little garbage.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */
import { Transform, type TransformCallback } from 'node:stream';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Rows of one batch: field `column` of row `row` is data[start(row, column) …] for length(row, column) bytes. */
export class CopyRows {
  readonly data: Buffer;
  readonly count: number;
  private readonly columns: number;
  /** Per row and column: the field's offset in data, then its length (-1: NULL). */
  private readonly fields: number[];

  constructor(data: Buffer, columns: number, fields: number[]) {
    this.data = data;
    this.columns = columns;
    this.fields = fields;
    this.count = columns ? fields.length / (2 * columns) : 0;
  }

  start(row: number, column: number): number {
    return this.fields[2 * (row * this.columns + column)];
  }

  /** -1 for NULL. */
  length(row: number, column: number): number {
    return this.fields[2 * (row * this.columns + column) + 1];
  }

  /** The field's bytes (a view of data), or null. */
  field(row: number, column: number): Buffer | null {
    const length = this.length(row, column);
    if (length === -1) return null;
    const start = this.start(row, column);
    return this.data.subarray(start, start + length);
  }
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
      const fields: number[] = [];
      let columns = 0;
      for (;;) {
        if (data.length - at < 2) break;
        const count = data.readInt16BE(at);
        if (count === -1) {
          at = data.length; // the trailer
          break;
        }
        if (columns && count !== columns) return done(new Error('A COPY row with another number of fields.'));
        const rowStart = fields.length;
        let p = at + 2;
        let whole = true;
        for (let f = 0; f < count; f += 1) {
          if (data.length - p < 4) {
            whole = false;
            break;
          }
          const length = data.readInt32BE(p);
          p += 4;
          if (length !== -1 && data.length - p < length) {
            whole = false;
            break;
          }
          fields.push(p, length);
          if (length !== -1) p += length;
        }
        if (!whole) {
          fields.length = rowStart;
          break;
        }
        columns = count;
        at = p;
      }
      pending = at < data.length ? data.subarray(at) : null;
      if (fields.length) this.push(new CopyRows(data, columns, fields));
      done();
    },
    flush(done: TransformCallback) {
      done(pending ? new Error('The COPY data ended mid-row.') : null);
    },
  });
}

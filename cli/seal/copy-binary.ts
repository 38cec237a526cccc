/**
 * PostgreSQL's binary COPY format, read as it streams: a Transform from the server's bytes to
 * batches of rows, each field a Buffer (a view of the incoming chunk) or null. Binary, not CSV:
 * sealed bytes arrive as they are, with no hex to decode and no quoting to undo.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */
import { Transform, type TransformCallback } from 'node:stream';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

export type Fields = (Buffer | null)[];

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
      const rows: Fields[] = [];
      for (;;) {
        if (data.length - at < 2) break;
        const count = data.readInt16BE(at);
        if (count === -1) {
          at = data.length; // the trailer
          break;
        }
        const fields: Fields = new Array(count);
        let p = at + 2;
        let whole = true;
        for (let f = 0; f < count; f += 1) {
          if (data.length - p < 4) {
            whole = false;
            break;
          }
          const length = data.readInt32BE(p);
          p += 4;
          if (length === -1) {
            fields[f] = null;
            continue;
          }
          if (data.length - p < length) {
            whole = false;
            break;
          }
          fields[f] = data.subarray(p, p + length);
          p += length;
        }
        if (!whole) break;
        rows.push(fields);
        at = p;
      }
      pending = at < data.length ? data.subarray(at) : null;
      if (rows.length) this.push(rows);
      done();
    },
    flush(done: TransformCallback) {
      done(pending ? new Error('The COPY data ended mid-row.') : null);
    },
  });
}

/** COPY's CSV as RFC 4180 wants it on disk: CRLF line ends, and a byte-order mark where asked. */
import { Transform } from 'node:stream';

const LF = 0x0a;
const CR = 0x0d;
/** The UTF-8 byte-order mark, by which spreadsheets recognise UTF-8 (else they read Windows-1252). */
export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** COPY ends lines with LF; RFC 4180 with CRLF. Addresses hold no CR or LF (the table's check). */
export function crlfLines(onLines: (lines: number) => void, first = Buffer.alloc(0)): Transform {
  let prefix = first;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let lines = 0;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) lines += 1;
      const crlf = Buffer.allocUnsafe(prefix.length + chunk.length + lines);
      let at = prefix.copy(crlf);
      prefix = Buffer.alloc(0);
      let from = 0;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, from)) {
        at += chunk.copy(crlf, at, from, i);
        crlf[at++] = CR;
        crlf[at++] = LF;
        from = i + 1;
      }
      chunk.copy(crlf, at, from);
      onLines(lines);
      done(null, crlf);
    },
  });
}

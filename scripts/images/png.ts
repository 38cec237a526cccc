/**
 * Chromium writes PNGs with fast compression. This re-deflates the image data at the highest
 * level (lossless; the pixels and the other chunks stay as they are).
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function recompressPng(png: Buffer): Buffer {
  const parts: Buffer[] = [png.subarray(0, 8)];
  const data: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (type === 'IDAT') {
      if (data.length === 0) parts.push(Buffer.alloc(0)); // where the single IDAT goes
      data.push(png.subarray(offset + 8, offset + 8 + length));
    } else {
      parts.push(png.subarray(offset, end));
    }
    offset = end;
  }
  const at = parts.findIndex((part) => part.length === 0);
  parts[at] = chunk('IDAT', deflateSync(inflateSync(Buffer.concat(data)), { level: 9, memLevel: 9 }));
  const smaller = Buffer.concat(parts);
  return smaller.length < png.length ? smaller : png;
}

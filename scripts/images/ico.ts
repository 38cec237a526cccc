/**
 * Packs PNG images into one .ico file. Since Windows Vista an ICO entry may hold PNG data
 * as is, and every current browser reads it.
 */
export type IcoImage = { size: number; png: Buffer };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function packIco(images: IcoImage[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    if (size < 1 || size > 256) throw new Error(`ico: size ${size} is outside 1–256`);
    if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error(`ico: the ${size}px image is not a PNG`);
    if (png.readUInt32BE(16) !== size || png.readUInt32BE(20) !== size) {
      throw new Error(`ico: the ${size}px PNG is ${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`);
    }
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size % 256, 0); // width, 0 meaning 256
    entry.writeUInt8(size % 256, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

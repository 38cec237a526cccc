/**
 * What a thief finds in a copy of the database's files: the forms an address can be stored in, and
 * which files hold one (thief.test.ts, before-keys-init.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Each form a careless store could keep: as typed, lower case, NFC, NFD, and their UTF-8 in hex. */
export function forms(address: string): string[] {
  const texts = [address, address.toLowerCase(), address.normalize('NFC'), address.normalize('NFD')];
  const lowerNfc = address.normalize('NFC').toLowerCase();
  return [...new Set([...texts, lowerNfc, ...[...texts, lowerNfc].map((t) => Buffer.from(t).toString('hex'))])];
}

export type File = { path: string; bytes: Buffer };

/**
 * Every file under `dir` (paths relative to it) but those `skip` names, as it is now. A file that
 * goes away while it is read (a running server's temporary files) is left out.
 */
export function filesUnder(dir: string, skip: (path: string) => boolean = () => false): File[] {
  const files: File[] = [];
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (skip(path)) continue;
    try {
      if (statSync(join(dir, path)).isFile()) files.push({ path, bytes: readFileSync(join(dir, path)) });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  }
  return files;
}

/** Every file under `dir`, concatenated. */
export const filesOf = (dir: string): Buffer => Buffer.concat(filesUnder(dir).map((file) => file.bytes));

/** Each file that holds one of `addresses` in any of its forms, with the addresses it holds. */
export function addressesIn(files: File[], addresses: string[]): { path: string; addresses: string[] }[] {
  const needles = addresses.map((address) => ({ address, forms: forms(address).map((form) => Buffer.from(form)) }));
  return files.flatMap(({ path, bytes }) => {
    const held = needles.filter((needle) => needle.forms.some((form) => bytes.includes(form)));
    return held.length ? [{ path, addresses: held.map((needle) => needle.address) }] : [];
  });
}

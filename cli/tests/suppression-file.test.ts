/**
 * suppress --file reads every provider's export right or refuses it: the delimiter found, the
 * address column by name, `Name <address>` cells, a byte-order mark and CRLF; addresses held to the
 * list's own rule; a line that is no address refuses the whole file, named by number, never quoted.
 */
import { describe, expect, it } from 'vitest';
import { addressesInFile } from '../list/suppression-file';

describe('addressesInFile', () => {
  it('reads a tab-separated export with a BOM and CRLF', () => {
    const file = '\uFEFFemail\treason\tcreated\r\nada@example.com\t550 5.1.1, user unknown\t2026-11-20\r\n';
    expect(addressesInFile(`${file}bob@example.com\tcomplaint\t2026-11-21\r\n`)).toEqual({
      addresses: ['ada@example.com', 'bob@example.com'],
      outsideTheRule: 0,
    });
  });

  it('reads a semicolon CSV (European spreadsheets) and a "Name <address>" cell', () => {
    const file = 'Name;E-Mail;Reason\r\nAda;"Ada Lovelace <ada@example.com>";"550 5.1.1, user unknown"\r\n';
    expect(addressesInFile(`${file}Bob;bob@example.com;complaint\r\n`).addresses).toEqual([
      'ada@example.com',
      'bob@example.com',
    ]);
  });

  it('reads a comma CSV whose quoted cells hold commas, and one address a line', () => {
    const csv = 'address,error\r\n"a,comma@example.com","550 5.1.1, no such user"\r\n';
    expect(addressesInFile(csv).addresses).toEqual(['a,comma@example.com']);
    expect(addressesInFile('ada@example.com\n\n<bob@example.com>\n').addresses).toEqual([
      'ada@example.com',
      'bob@example.com',
    ]);
  });

  it('counts an address outside the list’s rule (a quoted local part) as not on the list', () => {
    expect(addressesInFile('email\n"ada"@example.com\nada@example\nbob@example.com\n')).toEqual({
      addresses: ['bob@example.com'],
      outsideTheRule: 2,
    });
  });

  it('refuses a file with a line that is no address, naming its number and never its text', () => {
    const joined = 'ada@example.com\nsecret-bob@example.com\tbounced\t2026-11-20\n2026-11-21\nAda Lovelace\n';
    expect(() => addressesInFile(joined)).toThrow(
      /^Not an address on lines 2, 3, 4 of the file \(a date, a name, a whole row\?\): nothing was suppressed\./,
    );
    try {
      addressesInFile(joined);
    } catch (error) {
      expect((error as Error).message).not.toContain('@');
    }
  });

  it('refuses a delimited file without a known column, and bad quoting, quoting nothing', () => {
    expect(() => addressesInFile('Recipient,Type\nada@example.com,hard\n')).toThrow(
      'No email/e-mail/email address/email_address/emailaddress/address column in the file’s first line',
    );
    expect(() => addressesInFile('email,type\n"ada@example.com"x,hard\n')).toThrow(
      /^The file is not valid CSV \(\w+, line 2\)\.$/,
    );
  });
});

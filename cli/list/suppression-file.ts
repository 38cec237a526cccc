/**
 * An email tool's unsubscribe, bounce or complaint export, read right or refused: its delimiter (tab, comma or
 * semicolon) from the first line, its address column by name, each cell an address (`Name <address>` read by an RFC
 * 5322 parser) held to the list's own rule. No message quotes a line.
 */
import { parse } from 'csv-parse/sync';
import emailAddresses from 'email-addresses';
import { checkEmail } from '../../contracts/email.ts';
import { UsageError } from '../terminal/terminal.ts';

/** An address column's names, in any case: SendGrid's exports say `email`, Mailgun's `address`. */
export const COLUMNS = ['email', 'e-mail', 'email address', 'email_address', 'emailaddress', 'address'];
const isColumn = (name: string) => COLUMNS.includes(name.trim().toLowerCase());

/** The delimiter used most often outside quotes in `line`; none: one value a line. */
function delimiterOf(line: string): string | undefined {
  const bare = line.replace(/"[^"]*"/g, '');
  const counts = ['\t', ';', ','].map((delimiter) => ({ delimiter, count: bare.split(delimiter).length - 1 }));
  const used = counts.filter(({ count }) => count > 0);
  return used.sort((a, b) => b.count - a.count)[0]?.delimiter;
}

/** An address the list could hold; `outside` when it is one (RFC 5322) the list's rule refuses; null: none at all. */
function addressIn(value: string): string | 'outside' | null {
  const plain = checkEmail(value);
  if (plain.ok && !value.includes('<')) return plain.email;
  const parsed = emailAddresses.parseOneAddress({ input: value, rfc6532: true });
  if (!parsed || parsed.type !== 'mailbox') return plain.ok ? plain.email : null;
  const inside = checkEmail(parsed.parts.address.tokens);
  return inside.ok ? inside.email : 'outside';
}

/** An address typed on the command line, read as a cell is ("Name <address>", stray spaces); null when it is none. */
export function typedAddress(value: string) {
  const found = addressIn(value);
  return found === 'outside' ? value.trim() : found;
}

type Parsed = { record: string[]; info: { lines: number } };

/** The rows of a delimited file; a parse error names its line, never the value (csv-parse's message quotes it). */
function csvRows(body: string, delimiter: string) {
  try {
    const rows = parse(body, { delimiter, skip_empty_lines: true, relax_column_count: true, info: true });
    return (rows as unknown as Parsed[]).map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    throw new UsageError(`The file is not valid ${delimiter === '\t' ? 'TSV' : 'CSV'} (${code}, line ${lines}).`);
  }
}

type SuppressionFile = { addresses: string[]; outsideTheRule: number };

export function addressesInFile(text: string): SuppressionFile {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const delimiter = delimiterOf(firstLine);
  const rows = delimiter
    ? csvRows(body, delimiter)
    : body
        .split(/\r?\n/)
        .map((line, index) => ({ cells: [line], line: index + 1 }))
        .filter(({ cells }) => cells[0].trim());
  const column = rows[0]?.cells.findIndex(isColumn) ?? -1;
  if (delimiter && column < 0) {
    throw new UsageError(`No ${COLUMNS.join('/')} column in the file’s first line: nothing was suppressed.`);
  }
  const found: SuppressionFile = { addresses: [], outsideTheRule: 0 };
  const junk: number[] = [];
  for (const { cells, line } of column >= 0 ? rows.slice(1) : rows) {
    const address = addressIn(cells[Math.max(column, 0)] ?? '');
    if (address === null) junk.push(line);
    else if (address === 'outside') found.outsideTheRule += 1;
    else found.addresses.push(address);
  }
  if (junk.length) {
    const lines = `${junk.slice(0, 10).join(', ')}${junk.length > 10 ? ` and ${junk.length - 10} more` : ''}`;
    throw new UsageError(
      `Not an address on line${junk.length > 1 ? 's' : ''} ${lines} of the file (a date, a name, a whole row?): ` +
        'nothing was suppressed. Correct or delete those lines, or export the address column alone.',
    );
  }
  return found;
}

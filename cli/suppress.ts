import { Command, Option } from 'commander';
import { parse } from 'csv-parse/sync';
import { withDatabase } from './connect/database.ts';
import { suppress } from './list/do-not-email.ts';
import { json, out, readText, UsageError } from './terminal.ts';

/** An address column's names, in any case: SendGrid's exports say `email`, Mailgun's `address`. */
const COLUMNS = ['email', 'e-mail', 'email address', 'email_address', 'emailaddress', 'address'];
const isColumn = (name: string) => COLUMNS.includes(name.trim().toLowerCase());

/** An email tool's unsubscribe, bounce or complaint export (a CSV with an address column, or one address a line). */
export function addressesInFile(text: string): { addresses: string[]; skipped: number } {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const csv = /[,;"]/.test(firstLine) || isColumn(firstLine);
  const [header = [], ...rows]: string[][] = csv
    ? parse(text, { bom: true, skip_empty_lines: true, delimiter: firstLine.includes(',') ? ',' : ';' })
    : [];
  const column = header.findIndex(isColumn);
  if (csv && column < 0) throw new UsageError(`No ${COLUMNS.join('/')} column in the header: ${firstLine}`);
  const values = csv ? rows.map((row) => row[column] ?? '') : text.split(/\r?\n/).filter((line) => line.trim());
  const addresses = values.map((value) => value.trim()).filter((value) => value.includes('@'));
  return { addresses, skipped: values.length - addresses.length };
}

export function suppressCommand(): Command {
  return new Command('suppress')
    .description('Put addresses on the do-not-email list without erasing them: never exported or emailed again.')
    .argument('[address...]', 'addresses to suppress (one starting with - goes after --)')
    .option('--file <file>', `an email tool's export (CSV with a column ${COLUMNS.join(', ')}) or one address a line`)
    .addOption(
      new Option('--reason <reason>', 'recorded with each entry')
        .choices(['unsubscribed', 'bounced', 'suppressed'])
        .default('suppressed'),
    )
    .option('--json', 'print {"suppressed", "alreadyListed", "signedUp", "notAddresses"} as JSON')
    .action(async (given: string[], options: { file?: string; reason: string; json?: boolean }) => {
      const shown = given.filter((address) => !address.includes('@')).map((a) => JSON.stringify(a));
      if (shown.length) throw new UsageError(`Not addresses (options go before "--"): ${shown.join(', ')}`);
      const { addresses: inFile, skipped } = addressesInFile(options.file ? readText(options.file, '--file') : '');
      const addresses = [...given, ...inFile];
      if (!addresses.length) throw new UsageError('Name at least one address, or a --file that has one.');
      const { added, already, signedUp } = await withDatabase((db) => suppress(db, addresses, options.reason));
      const note = skipped ? ` ${skipped} lines of the file were not addresses (no @): skipped.` : '';
      if (options.json)
        return void json({ suppressed: added, alreadyListed: already, signedUp, notAddresses: skipped });
      out(`${added} added to the do-not-email list, ${already} already on it, ${signedUp} on the waiting list.${note}`);
    });
}

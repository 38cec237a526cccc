import { Command, Option } from 'commander';
import { parse } from 'csv-parse/sync';
import { withDatabase } from './connect/database.ts';
import { suppress } from './list/do-not-email.ts';
import { json, out, readText, UsageError } from './terminal.ts';

const EMAIL_COLUMN = /^e-?mail([ _-]?address)?$/i;

/** An email tool's unsubscribe or bounce export: a CSV with an email column, or one address per line. */
export function addressesInFile(text: string): string[] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  if (!/[,;"]/.test(firstLine) && !EMAIL_COLUMN.test(firstLine.trim())) {
    return text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  }
  const records: Record<string, string>[] = parse(text, { columns: true, bom: true, skip_empty_lines: true });
  const column = Object.keys(records[0] ?? {}).find((name) => EMAIL_COLUMN.test(name.trim()));
  if (!column) throw new UsageError(`No "email" column in the file's header: ${firstLine}`);
  return records.map((record) => record[column].trim()).filter(Boolean);
}

export function suppressCommand(): Command {
  return new Command('suppress')
    .description(
      'Put addresses on the do-not-email list without erasing them (an unsubscribe, a bounce): ' +
        'they are no longer exported or emailed. Stored as keyed hashes.',
    )
    .argument('[address...]', 'addresses to suppress (one starting with - goes after --)')
    .option('--file <file>', "an email tool's unsubscribe or bounce export: CSV with an email column, or one per line")
    .addOption(
      new Option('--reason <reason>', 'recorded with each entry')
        .choices(['unsubscribed', 'bounced', 'suppressed'])
        .default('suppressed'),
    )
    .option('--json', 'print {"suppressed", "alreadyListed"} as JSON')
    .action(async (given: string[], options: { file?: string; reason: string; json?: boolean }) => {
      const addresses = [...given, ...(options.file ? addressesInFile(readText(options.file, '--file')) : [])];
      if (!addresses.length) throw new UsageError('Name at least one address, or --file.');
      const notAddresses = addresses.filter((address) => !address.includes('@'));
      const shown = notAddresses.map((a) => JSON.stringify(a)).join(', ');
      if (notAddresses.length) throw new UsageError(`Not addresses (options go before "--"): ${shown}`);
      const { added, already } = await withDatabase((db) => suppress(db, addresses, options.reason));
      if (options.json) json({ suppressed: added, alreadyListed: already });
      else out(`${added} added to the do-not-email list, ${already} already on it (reason: ${options.reason}).`);
    });
}

import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { withDatabase } from './connect/database.ts';
import { writeAtomically } from './export/atomic-file.ts';
import { beginExport, exportSource, type ExportChoice } from './list/export-query.ts';
import { progress } from './progress.ts';
import { binaryCopyRows } from './seal/copy-binary.ts';
import { sealedCsv } from './seal/csv.ts';
import { wrappedKeys } from './seal/open.ts';
import { openerFor } from './seal/sealed-list.ts';
import { EXIT, say } from './terminal.ts';

type Options = { all?: boolean; for?: string; output?: string };
type Exported = { leftOut: number; unreadable: number };

/** Streams the CSV into `to`; says how many signups it left out (the do-not-email list) and could not read. */
async function exportTo(to: Writable, choice: ExportChoice): Promise<Exported> {
  return withDatabase(
    async (db) => {
      // Before anything is written: without the key, no address at all.
      const opener = await openerFor(db, 'export');
      const signups = await beginExport(db);
      // Every hour key of this snapshot, unwrapped while the server sorts the rows for the COPY
      // (sent next); the CSV waits for the keys.
      const unwrapped = opener ? opener.unwrapAll(await wrappedKeys(db)) : Promise.resolve();
      // A bar on a terminal only: a script reading stderr gets no chatter.
      const bar = process.stderr.isTTY ? progress('export', signups) : undefined;
      let written = 0;
      const csv = sealedCsv(opener, {
        spreadsheet: choice.spreadsheet,
        byteOrderMark: choice.spreadsheet,
        onRows: (n) => {
          written += n;
          bar?.advance(n);
        },
        after: unwrapped,
      });
      await Promise.all([unwrapped, pipeline(db.query(copyTo(exportSource(choice))), binaryCopyRows(), csv, to)]);
      bar?.stop();
      await db.query('commit');
      return { leftOut: signups - written - csv.unreadable, unreadable: csv.unreadable };
    },
    { longQueries: true },
  );
}

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'Write every address as CSV (RFC 4180, header email,signed_up_at in UTC ISO 8601) to stdout, oldest first, ' +
        'each address byte for byte as signed up. Addresses on the do-not-email list are left out. Once the list ' +
        "is sealed, needs the owner's private key (WAITLIST_OWNER_KEY_FILE or WAITLIST_OWNER_KEY_COMMAND, or its " +
        'file named on a terminal).',
    )
    .option('--all', 'include the addresses on the do-not-email list')
    .addOption(
      new Option(
        '--for <reader>',
        'spreadsheet: a UTF-8 byte-order mark, every cell quoted, and cells starting with = + - @ prefixed with a quote (OWASP)',
      ).choices(['email-tool', 'spreadsheet']),
    )
    .option(
      '-o, --output <file>',
      'write to this file instead, whole or not at all (a failed export leaves it as it was)',
    )
    .action(async (options: Options) => {
      const choice = { all: Boolean(options.all), spreadsheet: options.for === 'spreadsheet' };
      let done: Exported = { leftOut: 0, unreadable: 0 };
      if (options.output)
        await writeAtomically(options.output, async (file) => void (done = await exportTo(file, choice)));
      else done = await exportTo(process.stdout, choice);
      if (done.leftOut)
        say(`Left out: ${done.leftOut} addresses on the do-not-email list (add --all to include them).`);
      if (done.unreadable) {
        say(`Left out: ${done.unreadable} signups that hold neither an address nor a seal (see waitlist count).`);
        process.exitCode = EXIT.failed;
      }
      if (options.output) say(`Wrote ${options.output}.`);
    });
}

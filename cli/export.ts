import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { withDatabase } from './connect/database.ts';
import { writeAtomically } from './export/atomic-file.ts';
import { BOM, crlfLines } from './export/csv-lines.ts';
import { beginExport, exportSql, type ExportChoice } from './list/export-query.ts';
import { progress } from './progress.ts';
import { say } from './terminal.ts';

type Options = { all?: boolean; for?: string; output?: string };

/** Streams the CSV into `to`; returns how many signups it left out (the do-not-email list). */
async function exportTo(to: Writable, choice: ExportChoice): Promise<number> {
  return withDatabase(
    async (db) => {
      const signups = await beginExport(db);
      // A bar on a terminal only: a script reading stderr gets no chatter.
      const bar = process.stderr.isTTY ? progress('export', signups) : undefined;
      let written = -1; // the header is a line too
      const lines = crlfLines(
        (n) => {
          written += n;
          bar?.advance(n);
        },
        choice.spreadsheet ? BOM : undefined,
      );
      await pipeline(db.query(copyTo(exportSql(choice))), lines, to);
      bar?.stop();
      await db.query('commit');
      return signups - written;
    },
    { longQueries: true },
  );
}

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'Write every address as CSV (RFC 4180, header email,signed_up_at in UTC ISO 8601) to stdout, oldest first, ' +
        'each address byte for byte as stored. Addresses on the do-not-email list are left out.',
    )
    .option('--all', 'include the addresses on the do-not-email list')
    .addOption(
      new Option(
        '--for <reader>',
        'spreadsheet: a UTF-8 byte-order mark, and cells starting with = + - @ prefixed with a quote (OWASP)',
      ).choices(['email-tool', 'spreadsheet']),
    )
    .option(
      '-o, --output <file>',
      'write to this file instead, whole or not at all (a failed export leaves it as it was)',
    )
    .action(async (options: Options) => {
      const choice = { all: Boolean(options.all), spreadsheet: options.for === 'spreadsheet' };
      let leftOut = 0;
      if (options.output)
        await writeAtomically(options.output, async (file) => void (leftOut = await exportTo(file, choice)));
      else leftOut = await exportTo(process.stdout, choice);
      if (leftOut) say(`Left out: ${leftOut} addresses on the do-not-email list (add --all to include them).`);
      if (options.output) say(`Wrote ${options.output}.`);
    });
}

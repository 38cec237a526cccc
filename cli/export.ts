import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { withDatabase } from './connection.ts';
import { progress } from './progress.ts';
import { say } from './terminal.ts';

const LF = 0x0a;
const CR = 0x0d;

/** COPY ends lines with LF; RFC 4180 with CRLF. Addresses hold no CR or LF (the table's check). */
function crlfLines(onLines: (lines: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let lines = 0;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) lines += 1;
      const crlf = Buffer.allocUnsafe(chunk.length + lines);
      let at = 0;
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

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'Write every address as CSV (RFC 4180, header email,signed_up_at in UTC ISO 8601) to stdout, oldest first, ' +
        'each address byte for byte as stored. Addresses on the do-not-email list are left out.',
    )
    .option('--all', 'include the addresses on the do-not-email list')
    .addOption(
      new Option('--for <reader>', 'spreadsheet: prefix cells starting with = + - @ with a quote (OWASP)').choices([
        'email-tool',
        'spreadsheet',
      ]),
    )
    .action(async (options: { all?: boolean; for?: string }) => {
      const spreadsheet = options.for === 'spreadsheet';
      const email = spreadsheet ? 'private.csv_cell(email)' : 'email';
      // Quoted cells stay whole where a spreadsheet splits on ';' ("x@b.co;=1+1@b.co" is one address).
      const quoteAll = spreadsheet ? ', force_quote *' : '';
      const from = options.all ? 'public.waiting_list' : 'private.mailable_signups';
      const sql = `copy (select ${email} as email,
                    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as signed_up_at
                  from ${from} order by created_at, id) to stdout with (format csv, header${quoteAll})`;
      await withDatabase(async (db) => {
        // A bar on a terminal only: a script reading stderr gets no chatter.
        const bar = process.stderr.isTTY
          ? progress('export', (await db.query('select count(*)::int as n from public.waiting_list')).rows[0].n)
          : undefined;
        let header = true;
        await pipeline(
          db.query(copyTo(sql)),
          crlfLines((lines) => {
            bar?.advance(header ? lines - 1 : lines);
            header = false;
          }),
          process.stdout,
        );
        bar?.stop();
      });
      if (!options.all) say('Left out: the addresses on the do-not-email list (add --all to include them).');
    });
}

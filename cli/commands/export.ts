import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { withDatabase } from '../connect/database.ts';
import { writeAtomically } from './export/atomic-file.ts';
import { listCsv, listCsvSource } from './export/csv.ts';
import { keySignups } from '../list/signups.ts';
import { progress } from '../terminal/progress.ts';
import { openerFor, wrappedKeys } from '../seal/open.ts';
import { EXIT, say } from '../terminal/terminal.ts';

type Options = { all?: boolean; for?: string; output?: string };

/** Every signup with what opens it, the do-not-email list included (--all); else those that may be emailed. */
const source = (all: boolean) =>
  all
    ? `(select w.id, a.hour_key_id, a.seal, w.email, w.created_at
        from public.waiting_list w left join private.signup_addresses a on a.id = w.id) every`
    : 'private.mailable_signups';

/** Streams the CSV into `to`; says how many signups it left out (the do-not-email list) and could not read. */
function exportTo(to: Writable, all: boolean, spreadsheet: boolean) {
  return withDatabase(
    async (db) => {
      // Before anything is written: without the key, no address at all.
      const opener = await openerFor(db, 'export');
      // Rows restored with triggers off get their address hash first: unhashed, no do-not-email entry would match them.
      await keySignups(db);
      // One snapshot for the CSV and its counts, so "left out" is exact.
      await db.query('begin isolation level repeatable read read only');
      const { rows } = await db.query<{ signups: number }>('select count(*)::int as signups from public.waiting_list');
      const { signups } = rows[0];
      // A bar on a terminal only: a script reading stderr gets no chatter.
      const bar = process.stderr.isTTY ? progress('export', signups) : undefined;
      let written = 0;
      const onRows = (n: number) => {
        written += n;
        bar?.advance(n);
      };
      // Every hour key of this snapshot, unwrapped while the server sorts the rows for the COPY (sent
      // next); the CSV waits for the keys.
      const unwrapped = opener?.unwrapAll(await wrappedKeys(db, opener.holder.id));
      const csv = listCsv(opener, { spreadsheet, byteOrderMark: spreadsheet, onRows, after: unwrapped });
      await Promise.all([unwrapped, pipeline(db.query(copyTo(listCsvSource(source(all)))), csv, to)]);
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
      'Write the list as CSV (email,signed_up_at in UTC, oldest first), less the do-not-email list. A sealed list ' +
        "needs the owner's key (WAITLIST_OWNER_KEY_FILE or WAITLIST_OWNER_KEY_COMMAND, or its file on a terminal).",
    )
    .option('--all', 'include the addresses on the do-not-email list')
    .addOption(
      new Option(
        '--for <reader>',
        'spreadsheet: a UTF-8 byte-order mark, every cell quoted, ' +
          'and cells starting with = + - @ prefixed with a quote (OWASP)',
      ).choices(['email-tool', 'spreadsheet']),
    )
    .option('-o, --output <file>', 'write to this file instead, whole or not at all (a failed export leaves it as is)')
    .action(async (options: Options) => {
      const all = Boolean(options.all);
      const spreadsheet = options.for === 'spreadsheet';
      const done = options.output
        ? await writeAtomically(options.output, (file) => exportTo(file, all, spreadsheet))
        : await exportTo(process.stdout, all, spreadsheet);
      if (done.leftOut) {
        say(`Left out: ${done.leftOut} addresses on the do-not-email list (add --all to include them).`);
      }
      if (done.unreadable) {
        say(`Left out: ${done.unreadable} signups that hold neither an address nor a seal (see waitlist count).`);
        process.exitCode = EXIT.failed;
      }
      if (options.output) say(`Wrote ${options.output}.`);
    });
}

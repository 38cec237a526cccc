import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { to as copyTo } from 'pg-copy-streams';
import { withDatabase } from './connection.ts';
import { progress } from './progress.ts';
import { binaryCopyRows } from './seal/copy-binary.ts';
import { csvSource, sealedCsv } from './seal/csv.ts';
import { openerFor, sealPending } from './seal/sealed-list.ts';
import { EXIT, say } from './terminal.ts';

/** Every signup with what opens it, the do-not-email list included. */
const EVERY_SIGNUP = `(select w.id, k.step, k.sealed, w.email, w.created_at
                       from public.waiting_list w left join private.waiting_list_keys k on k.id = w.id) every`;

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
      const from = options.all ? EVERY_SIGNUP : 'private.mailable_signups';
      await withDatabase(async (db) => {
        await sealPending(db);
        // Before anything is written: without the key, no address at all.
        const opener = await openerFor(db, 'export');
        // A bar on a terminal only: a script reading stderr gets no chatter.
        const bar = process.stderr.isTTY
          ? progress('export', (await db.query('select count(*)::int as n from public.waiting_list')).rows[0].n)
          : undefined;
        const csv = sealedCsv(opener, { spreadsheet: options.for === 'spreadsheet', onRows: (n) => bar?.advance(n) });
        await pipeline(db.query(copyTo(csvSource(from))), binaryCopyRows(), csv, process.stdout);
        bar?.stop();
        if (csv.unreadable) {
          say(`Left out: ${csv.unreadable} signups that hold neither an address nor a seal (see waitlist count).`);
          process.exitCode = EXIT.failed;
        }
      });
      if (!options.all) say('Left out: the addresses on the do-not-email list (add --all to include them).');
    });
}

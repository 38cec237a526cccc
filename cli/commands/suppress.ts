import { Command, Option } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { suppress } from '../list/do-not-email.ts';
import { addressesInFile, COLUMNS, typedAddress } from '../list/suppression-file.ts';
import { repairBounces } from './suppress/repair.ts';
import { json, out, readText, requireYesOffTerminal, UsageError } from '../terminal/terminal.ts';

type Options = { file?: string; reason: string; repairBounces?: boolean; yes?: boolean; json?: boolean };

export function suppressCommand(): Command {
  return new Command('suppress')
    .description('Put addresses on the do-not-email list without erasing them: never exported or emailed again.')
    .argument('[address...]', 'addresses to suppress (one starting with - goes after --)')
    .option(
      '--file <file>',
      `an email tool's export: tab, comma or semicolon separated with a column ${COLUMNS.join(', ')}, or one ` +
        'address a line; a line that is not an address refuses the whole file',
    )
    .addOption(
      new Option('--reason <reason>', 'recorded with each entry')
        .choices(['unsubscribed', 'bounced', 'suppressed'])
        .default('suppressed'),
    )
    .option(
      '--repair-bounces',
      'take back the "bounced" entries notify recorded from refusals of the sender or the message (asks first)',
    )
    .option('-y, --yes', 'do not ask before --repair-bounces (required off a terminal)')
    .option('--json', 'print {"onTheList", "alreadySuppressed", "notOnTheList"} as JSON')
    .action(async (given: string[], options: Options) => {
      if (options.repairBounces) {
        requireYesOffTerminal(options.yes);
        const taken = await withDatabase((db) => repairBounces(db, options.yes));
        if (options.json) json({ takenBack: taken });
        return;
      }
      const typed = given.map(typedAddress);
      const shown = given.filter((_, i) => !typed[i]).map((a) => JSON.stringify(a));
      if (shown.length) throw new UsageError(`Not addresses (options go before "--"): ${shown.join(', ')}`);
      const inFile = options.file ? addressesInFile(readText(options.file, '--file')) : undefined;
      const addresses = [...(typed as string[]), ...(inFile?.addresses ?? [])];
      if (!addresses.length && !inFile?.outsideTheRule) {
        throw new UsageError('Name at least one address, or a --file that has one.');
      }
      const counts = await withDatabase((db) => suppress(db, addresses, options.reason));
      // An address the list's rule refuses cannot have signed up: counted as not on the list.
      const summary = { ...counts, notOnTheList: counts.notOnTheList + (inFile?.outsideTheRule ?? 0) };
      if (options.json) {
        json(summary);
        return;
      }
      out(
        `${summary.onTheList} on the waiting list, now suppressed; ${summary.alreadySuppressed} already suppressed; ` +
          `${summary.notOnTheList} not on the list.`,
      );
    });
}

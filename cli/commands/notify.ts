import { Command } from 'commander';
import { withDatabase } from '../connect/database.ts';
import { changes, letterOptions, recordOf, storedLetter, type Stored } from './notify/campaign.ts';
import { dkimSigning } from '../mail/dkim.ts';
import type { Sending } from './notify/one-message.ts';
import { domainOf, letter, type LetterOptions, type Mailbox, mailbox } from './notify/letter.ts';
import type { RunOptions } from './notify/run.ts';
import { dnsServer } from '../mail/dns.ts';
import { BULK_SENDER, OVERRIDE } from './notify/preflight.ts';
import { oneClick, unsubscribing } from './notify/unsubscribe.ts';
import { wholeNumber, EXIT_CODES, requireYesOffTerminal, say, UsageError } from '../terminal/terminal.ts';

type Modes = { preview?: string; force?: boolean; to?: string };
type Signing = { unsubscribeUrl?: string; dkimKey?: string; dkimSelector?: string };
type Options = RunOptions & Partial<LetterOptions> & Modes & Signing;

/** How messages from `from` are signed: all the domain check needs besides the domain. */
function signing(from: Mailbox, options: Options): Omit<Sending, 'oneClick' | 'letter'> {
  const dkim = dkimSigning(domainOf(from.address), options.dkimSelector, options.dkimKey);
  return { dkim, signing: { selector: options.dkimSelector, privateKey: dkim?.privateKey } };
}

/**
 * The campaign's recorded letter: needed when an option of the letter is missing; for --preview
 * and --to, compared when a database is set and answers. A send reads it again under its lock.
 */
async function stored(options: Options): Promise<Stored | undefined> {
  const complete = options.from && options.subject !== undefined && options.text;
  const read = () => withDatabase((db) => storedLetter(db, options.campaign));
  if (!complete) return read();
  if (!(options.preview || options.to) || !process.env.DATABASE_URL) return undefined;
  return read().catch(() => {
    say("Not compared with the campaign's recorded letter: the database did not answer.");
    return undefined;
  });
}

export function notifyCommand(): Command {
  return new Command('notify')
    .description(
      'Email the launch message to every address on the list, exactly once per campaign across any number of ' +
        'runs, through the SMTP server of SMTP_URL. Checks the sender domain (SPF, DKIM, DMARC, MX) first. ' +
        'Asks first (--yes off a terminal). Ctrl-C stops cleanly: the messages in flight finish; a second ' +
        'Ctrl-C stops at once.',
    )
    .option('--campaign <name>', 'the journal this send is recorded in, with its letter', 'launch')
    .option('--from <address>', 'the sender, one address with a domain, e.g. "Product <hello@example.com>"')
    .option('--subject <text>', 'the subject line (at most 998 characters)')
    .option('--text <file>', 'the plain-text body (UTF-8)')
    .option('--html <file>', 'an HTML body besides the plain text')
    .option('--reply-to <address>', 'where replies and unsubscribe requests go (default: --from)')
    .option(
      '--unsubscribe-url <url>',
      'the one-click unsubscribe function (default: VITE_SUPABASE_URL/functions/v1/unsubscribe); the body links to ' +
        'VITE_SITE_URL/unsubscribe; links are signed with UNSUBSCRIBE_SECRET',
    )
    .option('--dkim-key <file>', 'sign every message with this DKIM private key (PEM; or DKIM_PRIVATE_KEY)')
    .option('--dkim-selector <name>', "the DKIM key's selector (or, without a key, the one your provider signs with)")
    .option('--dns-server <ip[:port]>', "resolve the sender domain with this server (default: the system's)", dnsServer)
    .option(OVERRIDE, `send over ${BULK_SENDER} messages without SPF, DKIM, DMARC (big providers refuse or junk many)`)
    .option('--rate <n>', "messages per second at most (your provider's limit)", wholeNumber)
    .option('--limit <n>', 'at most this many addresses in this run (staged sends, a domain warming up)', wholeNumber)
    .option('--connections <n>', 'SMTP connections at once', wholeNumber, 2)
    .option('--retries <n>', 'attempts after a temporary refusal (4xx, dropped connection)', wholeNumber, 5)
    .option('--backoff <ms>', 'wait before the first retry, doubled each time', wholeNumber, 2000)
    .option('--preview <file.html>', 'write the message as sent, test links, to an HTML file (a new one, or its own)')
    .option('--force', 'let --preview write over a file it did not write')
    .option('--to <address>', 'send one test message to this address only, recorded nowhere')
    .option(
      '--skip-undeliverable',
      'leave out of this campaign the addresses whose domain has no mail server or is throwaway',
    )
    .option('--resend-uncertain', 'send again to the addresses a stopped run left uncertain')
    .option('-y, --yes', 'do not ask before sending (required off a terminal)')
    .option('--json', 'print the summary as JSON on stdout')
    .addHelpText('after', `\n${EXIT_CODES}`)
    .action(async (options: Options) => {
      if (options.connections < 1) throw new UsageError('--connections must be at least 1.');
      if (options.limit === 0) throw new UsageError('--limit must be at least 1.');
      const found = await stored(options);
      const files = letterOptions(options, found?.letter);
      const written = letter(files);
      const record = recordOf(written, files);
      const changed = found?.letter ? changes(record, found.letter) : [];
      if (changed.length && (options.preview || options.to)) {
        const refused = found?.sent ? ', and a send of it in this campaign is refused' : '';
        say(`This letter differs from campaign "${options.campaign}"'s: ${changed.join(', ')}${refused}.`);
      }
      const urls = unsubscribing(options.unsubscribeUrl);
      // The mailer is loaded only here: the other commands (export of a long list) stay ~20 MB lighter.
      const oneMessage = () => import('./notify/one-message.ts');
      if (options.preview) {
        await (await oneMessage()).preview(written, urls, options.preview, options.force);
      } else if (options.to) {
        const to = mailbox('--to', options.to).address;
        await (await oneMessage()).testMessage({ letter: written, ...signing(written.from, options) }, urls, to);
      } else {
        requireYesOffTerminal(options.yes);
        const sending = { letter: written, ...signing(written.from, options), oneClick: await oneClick(urls) };
        process.exitCode = await (await import('./notify/run.ts')).run(options, sending, record);
      }
    });
}

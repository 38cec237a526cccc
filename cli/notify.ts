import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import nodemailer from 'nodemailer';
import { newPool, withDatabase } from './connection.ts';
import { enqueue, resendUncertain, tally, uncertain } from './notify/journal.ts';
import { message, smtpTransport, type Letter } from './notify/mail.ts';
import { sendAll } from './notify/send.ts';
import { printSummary, summarize } from './notify/summary.ts';
import { progress } from './progress.ts';
import { count, EXIT, json, out, say, UsageError } from './terminal.ts';

type Options = {
  campaign: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  rate?: number;
  connections: number;
  retries: number;
  backoff: number;
  dryRun?: boolean;
  to?: string;
  resendUncertain?: boolean;
  json?: boolean;
};

function letterOf(options: Options): Letter {
  return {
    from: options.from,
    replyTo: options.replyTo ?? options.from,
    subject: options.subject,
    text: readFileSync(options.text, 'utf8'),
    ...(options.html ? { html: readFileSync(options.html, 'utf8') } : {}),
  };
}

/** Connects to both sides, counts, prints one rendered message on stdout; writes and sends nothing. */
async function dryRun(options: Options, letter: Letter): Promise<void> {
  const waiting = await withDatabase(async (db) => {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from private.mailable_signups m join private.waiting_list_keys h on h.id = m.id
       where not exists (select from private.notify_journal j
                         where j.campaign = $1 and j.address_hash = h.address_hash and j.state <> 'pending')`,
      [options.campaign],
    );
    return rows[0].n;
  });
  const transport = smtpTransport(1);
  await transport.verify();
  transport.close();
  say(`Dry run: the database and the SMTP server answer; ${waiting} would be sent in campaign "${options.campaign}".`);
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const { message: raw } = await render.sendMail(message(letter, 'recipient@example.com'));
  out(raw.toString());
}

async function run(options: Options, letter: Letter): Promise<number> {
  const db = newPool(options.connections + 1);
  const transport = smtpTransport(options.connections);
  const lock = await db.connect();
  try {
    // One run per campaign at a time: another run's in-flight rows would look uncertain.
    const { rows } = await lock.query('select pg_try_advisory_lock(hashtext($1)) as mine', [
      `notify ${options.campaign}`,
    ]);
    if (!rows[0].mine) throw new UsageError(`Another notify run of campaign "${options.campaign}" is running.`);
    await enqueue(db, options.campaign);
    const unsure = await uncertain(db, options.campaign);
    if (unsure.length && options.resendUncertain) {
      say(`Sending again to ${await resendUncertain(db, options.campaign)} uncertain addresses (--resend-uncertain).`);
    } else if (unsure.length) {
      say(`Uncertain, left alone: ${unsure.length} addresses were with the SMTP server when an earlier run stopped.`);
      say('They may or may not have received the message; --resend-uncertain sends them again:');
      for (const email of unsure) say(`  ${email ?? '(erased since)'}`);
    }
    const { pending } = await tally(db, options.campaign);
    const bar = progress('notify', pending, Math.max(100, Math.ceil(pending / 20)));
    const plan = { ...options, letter, transport, db, backoffMs: options.backoff, progress: bar };
    const done = await sendAll(plan).finally(() => bar.stop());
    const summary = await summarize(db, options.campaign, done.sent);
    printSummary(summary);
    if (options.json) json(summary);
    if (done.stopped) say(`Stopped early: ${done.stopped.message}`);
    if (done.stopped) return EXIT.failed;
    return summary.pending + summary.sending === 0 ? EXIT.ok : EXIT.leftToSend;
  } finally {
    lock.release();
    transport.close();
    await db.end();
  }
}

export function notifyCommand(): Command {
  return new Command('notify')
    .description(
      'Email the launch message to every address on the list, exactly once per campaign across any number of ' +
        'runs, through the SMTP server of SMTP_URL. Exit status 0 only when nothing is left to send.',
    )
    .option('--campaign <name>', 'the journal this send is recorded in', 'launch')
    .requiredOption('--from <address>', 'the sender, e.g. "Product <hello@example.com>"')
    .requiredOption('--subject <text>', 'the subject line')
    .requiredOption('--text <file>', 'the plain-text body (UTF-8)')
    .option('--html <file>', 'an HTML body besides the plain text')
    .option('--reply-to <address>', 'where replies and unsubscribe requests go (default: --from)')
    .option('--rate <n>', "messages per second at most (your provider's limit)", count)
    .option('--connections <n>', 'SMTP connections at once', count, 2)
    .option('--retries <n>', 'attempts after a temporary refusal (4xx, dropped connection)', count, 5)
    .option('--backoff <ms>', 'wait before the first retry, doubled each time', count, 2000)
    .option('--dry-run', 'connect, count, print one rendered message; send nothing')
    .option('--to <address>', 'send one test message to this address only, recorded nowhere')
    .option('--resend-uncertain', 'send again to the addresses a stopped run left uncertain')
    .option('--json', 'print the summary as JSON on stdout')
    .action(async (options: Options) => {
      if (options.connections < 1) throw new UsageError('--connections must be at least 1.');
      const letter = letterOf(options);
      if (options.to) {
        const transport = smtpTransport(1);
        await transport.sendMail(message(letter, options.to)).finally(() => transport.close());
        say(`Test message sent to ${options.to} (recorded nowhere).`);
      } else if (options.dryRun) await dryRun(options, letter);
      else process.exitCode = await run(options, letter);
    });
}

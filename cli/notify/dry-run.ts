/** notify --dry-run, --to and --check: servers and DNS checked, nothing recorded. */
import nodemailer from 'nodemailer';
import { withDatabase } from '../connect/database.ts';
import { out, say } from '../terminal.ts';
import type { Dkim } from './dkim.ts';
import { domainOf, type Letter } from './letter.ts';
import { preflight, type PreflightOptions, type Signing } from './sender-domain.ts';
import { checkSmtp, message, smtpTransport } from './smtp.ts';
import { wouldSend } from './summary.ts';
import { testLink, type OneClick } from './unsubscribe.ts';

export type Sending = { letter: Letter; oneClick: OneClick; dkim?: Dkim; signing: Signing };

/** Connects, counts, checks the sender domain as a run would, prints one rendered message (a test link); sends nothing. */
export async function dryRun(campaign: string, sending: Sending, options: PreflightOptions): Promise<void> {
  const transport = smtpTransport(1);
  const waiting = await withDatabase((db) => wouldSend(db, campaign));
  await checkSmtp(transport).finally(() => transport.close());
  say(`Dry run: the database and the SMTP server answer; ${waiting} would be sent in campaign "${campaign}".`);
  await preflight(domainOf(sending.letter.from), sending.signing, options, waiting);
  const render = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
    dkim: sending.dkim,
  });
  const rendered = await render.sendMail(message(sending.letter, 'recipient@example.com', testLink(sending.oneClick)));
  out(rendered.message.toString());
}

/** One message to one address, recorded nowhere; its unsubscribe link is a test link. */
export async function testMessage(sending: Sending, to: string): Promise<void> {
  const transport = smtpTransport(1, sending.dkim);
  try {
    await checkSmtp(transport);
    await transport.sendMail(message(sending.letter, to, testLink(sending.oneClick)));
  } finally {
    transport.close();
  }
  say(`Test message sent to ${to} (recorded nowhere).`);
}

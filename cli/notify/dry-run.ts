/** notify --dry-run and --to: both servers checked, nothing recorded. */
import nodemailer from 'nodemailer';
import { withDatabase } from '../connect/database.ts';
import { out, say } from '../terminal.ts';
import type { Letter } from './letter.ts';
import { message } from './mail.ts';
import { checkSmtp, smtpTransport } from './smtp.ts';
import { wouldSend } from './summary.ts';

/** Connects to both sides, counts, prints one rendered message on stdout; writes and sends nothing. */
export async function dryRun(campaign: string, letter: Letter): Promise<void> {
  const transport = smtpTransport(1);
  const waiting = await withDatabase((db) => wouldSend(db, campaign));
  await checkSmtp(transport).finally(() => transport.close());
  say(`Dry run: the database and the SMTP server answer; ${waiting} would be sent in campaign "${campaign}".`);
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const { message: raw } = await render.sendMail(message(letter, 'recipient@example.com'));
  out(raw.toString());
}

/** One message to one address, recorded nowhere. */
export async function testMessage(letter: Letter, to: string): Promise<void> {
  const transport = smtpTransport(1);
  try {
    await checkSmtp(transport);
    await transport.sendMail(message(letter, to));
  } finally {
    transport.close();
  }
  say(`Test message sent to ${to} (recorded nowhere).`);
}

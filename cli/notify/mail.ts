/** The SMTP side of notify: one message per recipient, and what an SMTP refusal means. */
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { UsageError } from '../terminal.ts';

export type Letter = { from: string; replyTo: string; subject: string; text: string; html?: string };

export function smtpTransport(connections: number): Transporter {
  const url = process.env.SMTP_URL;
  if (!url) throw new UsageError('SMTP_URL is not set, e.g. smtps://user:password@smtp.provider.example:465.');
  return nodemailer.createTransport({ url, pool: true, maxConnections: connections, maxMessages: Infinity });
}

/** "Name <a@b.example>" → "a@b.example". */
const bareAddress = (address: string) => /<([^<>]+)>\s*$/.exec(address)?.[1] ?? address.trim();

/**
 * One recipient alone in To; unsubscribing is a reply to the reply address. The address goes as
 * an object: a string would be parsed as a list ("a,b@example.com" is two), an object is quoted
 * for SMTP as needed ("a,b"@example.com).
 */
export function message(letter: Letter, to: string) {
  const recipient = { name: '', address: to };
  return {
    from: letter.from,
    replyTo: letter.replyTo,
    to: recipient,
    envelope: { from: bareAddress(letter.from), to: [recipient] },
    subject: letter.subject,
    text: letter.text,
    ...(letter.html ? { html: letter.html } : {}),
    list: { unsubscribe: `mailto:${bareAddress(letter.replyTo)}?subject=unsubscribe` },
  };
}

export type Refusal = 'temporary' | 'permanent' | 'fatal';

/** 4xx and a dropped connection: try again later. 5xx: the address is refused. Anything else stops the run. */
export function refusal(error: unknown): Refusal {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  if (code === 'EAUTH' || code === 'ETLS' || code === 'EDNS' || code === 'EREQUIRETLS') return 'fatal';
  if (responseCode && responseCode >= 500) return 'permanent';
  if (responseCode && responseCode >= 400) return 'temporary';
  if (code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EPROTOCOL') return 'temporary';
  return 'fatal';
}

/** The server's reply without the address in it: the journal holds no address. */
export function reply(error: unknown, address: string): string {
  const { response, message: text } = (error ?? {}) as { response?: string; message?: string };
  return String(response ?? text ?? error)
    .split(address)
    .join('<address>')
    .slice(0, 300);
}

/** The SMTP side of notify: one message per recipient, and what an SMTP refusal means. */
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { UsageError } from '../terminal.ts';

export type Letter = { from: string; replyTo: string; subject: string; text: string; html?: string };

export function smtpTransport(connections: number): Transporter {
  const url = process.env.SMTP_URL;
  if (!url) throw new UsageError('SMTP_URL is not set, e.g. smtps://user:password@smtp.provider.example:465.');
  // maxRequeues 0: the pool would otherwise resend a message whose connection closed mid-send,
  // which the server may already hold; refusal() decides what may be tried again.
  return nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    maxRequeues: 0,
  });
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

/**
 * Whether the mailer delivers to exactly the address as stored. Nodemailer drops `<` and `>`
 * (and control characters, which the database refuses) from an address, so `<a@b.example>` and
 * `a@b.example>` reach a@b.example: a stored variant would be a second message to one person,
 * past erasure and suppression.
 */
export const deliverableAsStored = (address: string) => !/[<>]/.test(address);

/** The connection failed before any message could reach the server: trying again sends nothing twice. */
const NOT_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'];
const BEFORE_ANY_MESSAGE = ['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT'];

export type Refusal = 'temporary' | 'permanent' | 'uncertain' | 'fatal';

/**
 * 4xx, or no connection at all: try again later. 5xx: the address is refused. A connection lost
 * or timed out mid-conversation: the server may already hold the message, so it is uncertain and
 * not retried. Anything else stops the run.
 */
export function refusal(error: unknown): Refusal {
  const { code, originalCode, responseCode, timeoutType } = (error ?? {}) as {
    code?: string;
    originalCode?: string;
    responseCode?: number;
    timeoutType?: string;
  };
  if (code === 'EAUTH' || code === 'ETLS' || code === 'EDNS' || code === 'EREQUIRETLS') return 'fatal';
  if (responseCode && responseCode >= 500) return 'permanent';
  if (responseCode && responseCode >= 400) return 'temporary';
  if (NOT_CONNECTED.includes(originalCode ?? '') || BEFORE_ANY_MESSAGE.includes(timeoutType ?? '')) return 'temporary';
  if (code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EPROTOCOL') return 'uncertain';
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

/** The message every address gets, checked whole before anything connects (a bad one is exit 2). */
import addressparser from 'nodemailer/lib/addressparser';
import { readText, UsageError } from '../../terminal/terminal.ts';

export type Mailbox = { name: string; address: string };
export type Letter = { from: Mailbox; replyTo: Mailbox; subject: string; text: string; html?: string };

/** RFC 5322's limit for a header line; nodemailer would otherwise fold or cut it silently. */
const SUBJECT_MAX = 998;
/** local@domain.tld, nothing that ends an address (no space, <, >, comma, quote). */
const ADDRESS = /^[^\s@<>()[\]",;:\\]+@(?:[^\s@<>()[\]",;:\\.]+\.)+[^\s@<>()[\]",;:\\.]+$/u;

/** One mailbox with a domain, e.g. `Product <hello@example.com>` or `hello@example.com`. */
export function mailbox(option: string, value: string): Mailbox {
  const parsed = addressparser(value);
  const [first] = parsed;
  if (parsed.length !== 1 || !first.address || !ADDRESS.test(first.address)) {
    throw new UsageError(
      `${option} ${JSON.stringify(value)} is not one address with a domain, e.g. "Product <hello@your.domain>".`,
    );
  }
  return { name: first.name, address: first.address };
}

/** The domain of an address: the sender's (the DNS check, the DKIM signature), a recipient's. */
export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

export const shown = ({ name, address }: Mailbox) => (name ? `${name} <${address}>` : address);

export type LetterOptions = { from: string; replyTo?: string; subject: string; text: string; html?: string };

export function letter(options: LetterOptions): Letter {
  const from = mailbox('--from', options.from);
  const replyTo = options.replyTo ? mailbox('--reply-to', options.replyTo) : from;
  if (!options.subject.trim()) throw new UsageError('--subject is empty.');
  const { length } = [...options.subject];
  if (length > SUBJECT_MAX) throw new UsageError(`--subject is ${length} characters long; at most ${SUBJECT_MAX}.`);
  const html = options.html ? { html: readText(options.html, '--html') } : {};
  return { from, replyTo, subject: options.subject, text: readText(options.text, '--text'), ...html };
}

/**
 * The SMTP side of notify: SMTP_URL's server over verified TLS (smtps://, or smtp:// with STARTTLS required; plain only
 * to this machine), one message per recipient.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import nodemailer, { type Transporter } from 'nodemailer';
import { hostOf, isLoopback, secretUrl } from '../../connect/secret-url.ts';
import type { Dkim } from '../../mail/dkim.ts';
import { domainOf, type Letter } from './letter.ts';
import type { Links } from './unsubscribe.ts';
import { reply } from '../../mail/refusal.ts';

const MISSING = "Set it to your provider's SMTP server, e.g. smtps://user:password@smtp.provider.example:465.";

/** `dkim`: nodemailer signs every message with it (cli/mail/dkim.ts). */
export function smtpTransport(connections: number, dkim?: Dkim): Transporter {
  const url = secretUrl('SMTP_URL', ['smtps:', 'smtp:'], MISSING);
  const host = hostOf(url);
  const local = isLoopback(host);
  const user = decodeURIComponent(url.username);
  // maxRequeues 0: the pool would otherwise resend a message whose connection closed mid-send,
  // which the server may already hold; refusal() decides what may be tried again.
  return nodemailer.createTransport({
    host,
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === 'smtps:',
    requireTLS: !local,
    tls: { rejectUnauthorized: !local, minVersion: 'TLSv1.2' },
    ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    maxRequeues: 0,
    ...(dkim ? { dkim } : {}),
  });
}

/** Why the SMTP server cannot be used, in the owner's words. */
function unusable(error: unknown) {
  const { code } = (error ?? {}) as { code?: string };
  const said = reply(error);
  if (code === 'EAUTH') return `it refused the user name or password of SMTP_URL (${said})`;
  if (code === 'ETLS') {
    return (
      `it offers no TLS (STARTTLS), so the password would go in clear (${said}); ` +
      "use the provider's smtps:// port (465) or a server that offers STARTTLS"
    );
  }
  if (/certificate|self[- ]signed/i.test(String((error as Error)?.message))) {
    return `its certificate could not be verified (${said}); use the host name your provider documents`;
  }
  return said;
}

/** Connects and logs in once, before anything is marked: a server that cannot be used stops here. */
export async function checkSmtp(transport: Transporter) {
  await transport.verify().catch((error: unknown) => {
    throw new Error(`The SMTP server of SMTP_URL cannot be used: ${unusable(error)}. Nothing was sent.`, {
      cause: error,
    });
  });
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The owner's body and, after it, the visible unsubscribe link (HTML: before </body> if there is one). */
function withFooter(letter: Letter, page: string) {
  const text = `${letter.text}${letter.text.endsWith('\n') ? '' : '\n'}\nUnsubscribe: ${page}\n`;
  if (!letter.html) return { text };
  const footer = `<p><a href="${escapeHtml(page)}">Unsubscribe</a></p>\n`;
  const end = letter.html.search(/<\/body(?![\s\S]*<\/body)/i); // the last one
  return { text, html: end < 0 ? letter.html + footer : letter.html.slice(0, end) + footer + letter.html.slice(end) };
}

/**
 * One recipient alone in To. List-Unsubscribe: the one-click link first (RFC 8058: the provider POSTs to it), a reply
 * to the reply address second; the site's page in the body. The address goes as an object: a string would be parsed as
 * a list ("a,b@example.com" is two), an object is quoted for SMTP as needed ("a,b"@example.com). nodemailer adds Date
 * and a Message-ID on From's domain.
 */
export function message(letter: Letter, to: string, links: Links) {
  const recipient = { name: '', address: to };
  return {
    from: letter.from,
    replyTo: letter.replyTo,
    to: recipient,
    envelope: { from: letter.from.address, to: [recipient] },
    subject: letter.subject,
    ...withFooter(letter, links.page),
    // One header with both (nodemailer's `list` option would write two List-Unsubscribe headers).
    headers: {
      'List-Unsubscribe': `<${links.oneClick}>, <mailto:${letter.replyTo.address}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * Whether the mailer sends to the address as stored, so erasure and suppression hold: nodemailer drops `<` and `>`
 * (and control characters, which the database refuses), so `<a@b.example>` reaches a@b.example, a second message to one
 * person; and it maps the domain as UTS-46 does (fullwidth `ｍ` to `m`, `。` to a dot): a domain it changes is another
 * spelling.
 */
export function deliverableAsStored(address: string) {
  const domain = domainOf(address);
  const ascii = domainToASCII(domain);
  const asStored = domain.normalize('NFC').toLowerCase();
  return !/[<>]/.test(address) && (!ascii || ascii === asStored || domainToUnicode(ascii) === asStored);
}

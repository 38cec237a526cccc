/** notify --to and --preview: one message made by message() as a send makes it, test links, recorded nowhere. */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { out, say, UsageError } from '../../terminal/terminal.ts';
import type { Dkim } from '../../mail/dkim.ts';
import type { Letter } from './letter.ts';
import type { Signing } from '../../mail/sender-domain.ts';
import { checkSmtp, escapeHtml, message, smtpTransport } from './smtp.ts';
import { testLinks, type OneClick, type Unsubscribing } from './unsubscribe.ts';

export type Sending = { letter: Letter; oneClick: OneClick; dkim?: Dkim; signing: Signing };

export async function testMessage(sending: Omit<Sending, 'oneClick'>, urls: Unsubscribing, to: string) {
  const transport = smtpTransport(1, sending.dkim);
  try {
    await checkSmtp(transport);
    await transport.sendMail(message(sending.letter, to, testLinks(urls)));
  } finally {
    transport.close();
  }
  say(`Test message sent to ${to} (recorded nowhere).`);
}

/** The first line of every preview: what lets a later --preview write over its own file, and no other. */
const PREVIEW_START =
  '<!doctype html><meta charset="utf-8"><meta name="generator" content="waitlist notify --preview">';

/** Whether `file` is missing, or a preview (read only as far as the mark). */
async function oursOrFree(file: string) {
  const start = await readFile(file, 'utf8').then(
    (text) => text.slice(0, PREVIEW_START.length),
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? PREVIEW_START : ''),
  );
  return start === PREVIEW_START;
}

/**
 * The message as nodemailer renders it for sending, unsigned, as a page: its headers, its text part, its HTML part in a
 * sandboxed frame (no script runs). Over an earlier preview, never over another file (it may be the letter itself)
 * unless `force`.
 */
export async function preview(letter: Letter, urls: Unsubscribing, file: string, force?: boolean) {
  const mail = message(letter, 'recipient@example.com', testLinks(urls));
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const raw = (await render.sendMail(mail)).message.toString();
  const page = [
    `${PREVIEW_START}<title>Preview: ${escapeHtml(mail.subject)}</title>`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; ` +
      'img-src https: data:">',
    '<style>body{font:1rem sans-serif;max-width:50rem;margin:auto}pre{white-space:pre-wrap}' +
      'iframe{width:100%;height:30rem}</style>',
    `<h1 id="subject">${escapeHtml(mail.subject)}</h1>\n<h2>Headers</h2>`,
    `<pre id="headers">${escapeHtml(raw.slice(0, raw.indexOf('\n\n')))}</pre>\n<h2>Text part</h2>`,
    `<pre id="text">${escapeHtml(mail.text)}</pre>`,
    ...(mail.html ? [`<h2>HTML part</h2>\n<iframe id="html" sandbox srcdoc="${escapeHtml(mail.html)}"></iframe>`] : []),
  ];
  if (!force && !(await oursOrFree(file))) {
    throw new UsageError(`${file} exists and is not a preview: give another file, or --force to write over it.`);
  }
  await writeFile(file, `${page.join('\n')}\n`).catch((error: Error) => {
    throw new UsageError(`Cannot write the preview to ${file}: ${error.message}`);
  });
  say('Preview written (test links; nothing sent). Open it in a browser:');
  out(resolve(file));
}

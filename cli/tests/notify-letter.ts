/** The launch email the notify tests send, and the campaign's expected recipients. */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import { storedAddresses } from '../../supabase/harness/sealed';

/**
 * The secret the unsubscribe links are made with (the function's, in unsubscribe tests); inherited
 * by the commands.
 */
process.env.UNSUBSCRIBE_SECRET ??= randomBytes(32).toString('base64');
export const UNSUBSCRIBE_URL = 'https://project.supabase.example/functions/v1/unsubscribe';
/** The site whose /unsubscribe page the body's link opens; inherited by the commands. */
export const SITE_URL = 'https://site.product.example';
process.env.VITE_SITE_URL = SITE_URL;
/**
 * Where the sender-domain check asks when a test gives no DNS server of its own: a loopback port
 * nobody answers on, so every lookup fails at once (a warning below 5,000 recipients) and no
 * query leaves the machine.
 */
export const NO_DNS = '127.0.0.1:9';

export const TEXT = 'We launched.\n\nReply "unsubscribe" to hear no more from us.\n';

/** A notify command line for `campaign`, confirmed (--yes): the tests run off a terminal. */
export function letterArgs(campaign: string, where: Parameters<typeof unconfirmedArgs>[1] = {}) {
  return [...unconfirmedArgs(campaign, where), '--yes'];
}

export function unconfirmedArgs(campaign: string, { dns = NO_DNS, unsubscribeUrl = UNSUBSCRIBE_URL } = {}) {
  const text = join(mkdtempSync(join(tmpdir(), 'notify-')), 'launch.txt');
  writeFileSync(text, TEXT);
  return [
    'notify',
    '--campaign',
    campaign,
    '--from',
    'Launch <launch@product.example>',
    '--reply-to',
    'Replies <reply@product.example>',
    '--subject',
    'We launched',
    '--text',
    text,
    '--backoff',
    '20',
    '--unsubscribe-url',
    unsubscribeUrl,
    '--dns-server',
    dns,
  ];
}

/** A new DKIM signing key (RSA 2048, PEM), as `waitlist domain` makes one. */
export const newDkimKey = () =>
  String(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));

/** `pem` in a new file only its owner may read, for --dkim-key. */
export function dkimKeyFile(pem: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'dkim-')), 'dkim.pem');
  writeFileSync(file, pem, { mode: 0o600 });
  return file;
}

/**
 * One address the form accepts is not valid in SMTP (RFC 5321): the 254-character one, whose local
 * part is over 64 octets. The server refuses it (501).
 */
export const unsendable = (email: string) => email.split('@')[0].length > 64;

/**
 * The addresses a full send must reach: the list minus the do-not-email list, opened with the
 * owner's key.
 */
export async function recipients(owner: Client) {
  const { rows } = await owner.query<{ id: string }>('select id from private.mailable_signups');
  const keyFile = process.env.WAITLIST_OWNER_KEY_FILE;
  const opened = await storedAddresses(owner, keyFile ? readFileSync(keyFile, 'utf8') : undefined);
  return rows.map((row) => opened.get(row.id)!).sort();
}

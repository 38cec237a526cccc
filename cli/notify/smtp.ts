/** SMTP_URL's server over verified TLS (smtps://, or smtp:// with STARTTLS required); plain only to this machine. */
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { skippingTlsVerify } from '../connect/database.ts';
import { hostOf, isLoopback, secretUrl } from '../connect/secret-url.ts';
import type { Dkim } from './dkim.ts';
import { reply } from './mail.ts';

const MISSING = "Set it to your provider's SMTP server, e.g. smtps://user:password@smtp.provider.example:465.";

/** `dkim`: nodemailer signs every message with it (dkim.ts). */
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
    tls: { rejectUnauthorized: !local && !skippingTlsVerify(), minVersion: 'TLSv1.2' },
    ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    maxRequeues: 0,
    ...(dkim ? { dkim } : {}),
  });
}

/** Why the SMTP server cannot be used, in the owner's words. */
function unusable(error: unknown): string {
  const { code } = (error ?? {}) as { code?: string };
  if (code === 'EAUTH') return `it refused the user name or password of SMTP_URL (${reply(error)})`;
  if (code === 'ETLS')
    return `it offers no TLS (STARTTLS), so the password would go in clear (${reply(error)}); use the provider's smtps:// port (465) or a server that offers STARTTLS`;
  if (/certificate|self[- ]signed/i.test(String((error as Error)?.message))) {
    return `its certificate could not be verified (${reply(error)}); --insecure-skip-tls-verify connects without verifying`;
  }
  return reply(error);
}

/** Connects and logs in once, before anything is marked: a server that cannot be used stops here. */
export async function checkSmtp(transport: Transporter): Promise<void> {
  try {
    await transport.verify();
  } catch (error) {
    throw new Error(`The SMTP server of SMTP_URL cannot be used: ${unusable(error)}. Nothing was sent.`, {
      cause: error,
    });
  }
}

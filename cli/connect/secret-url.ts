/**
 * DATABASE_URL and SMTP_URL hold passwords. They are parsed here, before any library sees them,
 * and never echoed: a message says what is wrong, not what was given.
 */
import { isIP } from 'node:net';
import { UsageError } from '../terminal.ts';

const ENCODING =
  'Reserved characters in the user name or password are percent-encoded: # as %23, @ as %40, ' +
  '/ as %2F, : as %3A, ? as %3F, % as %25 (docs/operations.md).';

export function secretUrl(name: string, protocols: string[], missing: string): URL {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is not set. ${missing}`);
  let url: URL;
  try {
    url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new UsageError(`${name} is not a valid URL (not shown: it holds a password). ${ENCODING}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new UsageError(
      `${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, not ${url.protocol}//.`,
    );
  }
  if (url.hash || value.includes('#')) {
    throw new UsageError(`${name} contains a "#", which ends a URL: is it in the password? ${ENCODING}`);
  }
  return url;
}

/** The URL's host name without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether a connection to `host` never leaves this machine: a Unix socket, `localhost`, 127.0.0.0/8
 * or ::1 (plain and unverified connections are allowed only there). Judged by the name alone, never
 * by a DNS answer. WAITLIST_NO_LOOPBACK_EXEMPTION=1 treats loopback like any other host (tests).
 */
export function isLoopback(host: string): boolean {
  if (host.startsWith('/')) return true;
  if (process.env.WAITLIST_NO_LOOPBACK_EXEMPTION === '1') return false;
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(name);
}

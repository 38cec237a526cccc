/**
 * DATABASE_URL and SMTP_URL hold passwords: parsed by parseSecretUrl (contracts/secret-url.ts, shared with the
 * unsubscribe function), before any library sees them, and never echoed.
 */
import { isIP } from 'node:net';
import { hostOf, parseSecretUrl, postgresEndpoint, unknownParameter } from '../../contracts/secret-url.ts';
import { UsageError } from '../terminal/terminal.ts';

export { hostOf, unknownParameter };

/** The shared module's errors are the owner's to fix: exit 2. */
function usage<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function secretUrl(name: string, protocols: string[], missing: string): URL {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is not set. ${missing}`);
  return usage(() => parseSecretUrl(name, value, protocols));
}

/** User, password, host, port and database of a URL from secretUrl (postgresEndpoint). */
export const endpoint = (name: string, url: URL) => usage(() => postgresEndpoint(name, url));

/**
 * Whether a connection to `host` never leaves this machine: a Unix socket, `localhost`, 127.0.0.0/8
 * or ::1 (plain and unverified connections are allowed only there). Judged by the name alone, never
 * by a DNS answer. WAITLIST_NO_LOOPBACK_EXEMPTION=1 treats loopback like any other host (tests).
 */
export function isLoopback(host: string) {
  if (host.startsWith('/')) return true;
  if (process.env.WAITLIST_NO_LOOPBACK_EXEMPTION === '1') return false;
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(name);
}

/** Whether a secret may go to `url`: over https://, or plain http:// to this machine only (a stand-in). */
export const httpsOrLoopback = (url: URL) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(hostOf(url)));

/**
 * Where a token is sent (`name`'s URL, else `fallback`): https://, or plain http:// to this machine only (a
 * stand-in).
 */
export function tokenDestination(name: string, fallback: string): URL {
  const url = URL.parse(process.env[name] || fallback);
  if (url && httpsOrLoopback(url)) return url;
  throw new UsageError(`${name} must be https:// (plain http only to this machine).`);
}

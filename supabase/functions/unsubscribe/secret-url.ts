/**
 * URLs that hold a password (DATABASE_URL and SMTP_URL for the owner's commands, the function's
 * UNSUBSCRIBE_DB_URL), parsed before any library sees them and never echoed: a message says what
 * is wrong, not what was given. No imports: the same module runs in Node and in Deno.
 */

const ENCODING =
  'Reserved characters in the user name or password are percent-encoded: # as %23, @ as %40, ' +
  '/ as %2F, : as %3A, ? as %3F, % as %25 (docs/operations.md).';

/** The URL `value` of the setting `name`; an Error naming what is wrong, never any part of `value`. */
export function parseSecretUrl(name: string, value: string, protocols: string[]): URL {
  let url: URL;
  try {
    url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    // Not the parser's error: it quotes the input.
    throw new Error(`${name} is not a valid URL (not shown: it holds a password). ${ENCODING}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new Error(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, not ${url.protocol}//.`);
  }
  if (url.hash || value.includes('#')) {
    throw new Error(`${name} contains a "#", which ends a URL: is it in the password? ${ENCODING}`);
  }
  return url;
}

/** The URL's host name without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

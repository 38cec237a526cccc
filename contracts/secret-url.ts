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
  const form = protocols.map((p) => `${p}//`).join(' or ');
  if (!protocols.includes(url.protocol)) throw new Error(`${name} must start with ${form}, not ${url.protocol}//.`);
  // Without "//" the rest is a path: the password would be read as a database name, the host lost.
  if (!value.trimStart().slice(url.protocol.length).startsWith('//')) {
    throw new Error(`${name} must start with ${form}: the "//" before the user name is missing.`);
  }
  if (url.hash || value.includes('#')) {
    throw new Error(`${name} contains a "#", which ends a URL: is it in the password? ${ENCODING}`);
  }
  // A "?" in the password starts the parameters early: the rest of it, then "@host", would be one.
  if (url.search.includes('@')) {
    throw new Error(`${name} has an "@" after its "?": is a "?" in the password? ${ENCODING}`);
  }
  return url;
}

/** The URL's host name without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The first parameter of `url` that is not host, port or one of `allowed`, as it may be shown: its
 * name when it looks like a parameter's name, else "a parameter"; undefined when there is none.
 */
export function unknownParameter(url: URL, allowed: string[]): string | undefined {
  const key = [...url.searchParams.keys()].find((key) => !['host', 'port', ...allowed].includes(key));
  if (key === undefined) return undefined;
  return /^[a-z][a-z0-9_]{0,40}$/i.test(key) ? `"${key}"` : 'a parameter';
}

export type Endpoint = { user: string; password: string; host: string; port: number; database: string };

/** A percent-encoded part of the URL, or '' when it is not percent-encoded correctly. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}

/**
 * What pg needs of a PostgreSQL URL parsed by parseSecretUrl, instead of the URL: user, password,
 * host and port (?host= and ?port= win: a Unix socket) and the one database. An Error when one is
 * missing, which shows no part of the URL.
 */
export function postgresEndpoint(name: string, url: URL): Endpoint {
  const host = url.searchParams.get('host') ?? hostOf(url);
  const port = Number(url.searchParams.get('port') ?? (url.port || 5432));
  const database = /^\/[^/@]+$/.test(url.pathname) ? decoded(url.pathname.slice(1)) : '';
  if (!url.username || !host || !database || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(
      `${name} must name a user, a host, a port and one database: postgresql://user:password@host:port/database.`,
    );
  }
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), host, port, database };
}

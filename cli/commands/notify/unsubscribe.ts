/**
 * A message's two unsubscribe links, one token (the address hash, signed with UNSUBSCRIBE_SECRET, which the function
 * holds too): the function's URL in List-Unsubscribe for the provider's one-click POST, and the site's /unsubscribe
 * page in the body, the token in the fragment, which no host's log sees.
 */
import { makeToken, unsubscribeKey, SECRET_MIN_LENGTH, TEST_TOKEN } from '../../../contracts/unsubscribe-token.ts';
import { httpsOrLoopback } from '../../connect/secret-url.ts';
import { UsageError } from '../../terminal/terminal.ts';

export type Links = { oneClick: string; page: string };
export type Unsubscribing = { url: URL; page: URL };
export type OneClick = Unsubscribing & { key: CryptoKey };

/** `what` as a URL mail providers follow: https:// (http:// to this machine only), no ?query or #fragment. */
function linkBase(what: string, value: string, path = ''): URL {
  const url = URL.parse(path || value, value);
  if (!url) throw new UsageError(`The ${what} ${JSON.stringify(value)} is not a URL.`);
  if (!httpsOrLoopback(url)) {
    throw new UsageError(`The ${what} must be https:// (mail providers ignore any other): ${url.href}`);
  }
  if (url.search || url.hash) throw new UsageError(`The ${what} takes no ?query or #fragment: ${url.href}`);
  return url;
}

/** Both links' URLs, without a token: all a test message needs. */
export function unsubscribing(option: string | undefined): Unsubscribing {
  const { VITE_SUPABASE_URL: project, VITE_SITE_URL: site } = process.env;
  if (!option && !project) {
    throw new UsageError(
      'No unsubscribe URL: set VITE_SUPABASE_URL (the project URL, .env.local) or give --unsubscribe-url.',
    );
  }
  if (!site) {
    throw new UsageError(
      "VITE_SITE_URL is not set: set it to the site's address (.env.local, by setup): " +
        "the body's unsubscribe link goes to its /unsubscribe page.",
    );
  }
  return {
    url: linkBase('unsubscribe URL', option ?? project!, option ? '' : '/functions/v1/unsubscribe'),
    page: linkBase('site URL (VITE_SITE_URL)', site, '/unsubscribe'),
  };
}

export async function oneClick(urls: Unsubscribing): Promise<OneClick> {
  const secret = process.env.UNSUBSCRIBE_SECRET ?? '';
  if (secret.length < SECRET_MIN_LENGTH) {
    throw new UsageError(
      `UNSUBSCRIBE_SECRET is ${secret ? 'too short' : 'not set'}: set it to the secret the unsubscribe function ` +
        `holds (at least ${SECRET_MIN_LENGTH} characters; supabase/README.md, "One-click unsubscribe").`,
    );
  }
  return { ...urls, key: await unsubscribeKey(secret) };
}

function withToken({ url, page }: Unsubscribing, token: string): Links {
  const link = new URL(url);
  link.searchParams.set('token', token);
  return { oneClick: link.href, page: `${page.href}#${token}` };
}

export async function unsubscribeLinks(oneClick: OneClick, hash: Uint8Array): Promise<Links> {
  return withToken(oneClick, await makeToken(oneClick.key, hash));
}

/**
 * The links of a test message (--to, --preview): they name nobody and hold no working token, so the
 * function answers them 403, changes nothing, and never says "Unsubscribed" for a test.
 */
export const testLinks = (urls: Unsubscribing) => withToken(urls, TEST_TOKEN);

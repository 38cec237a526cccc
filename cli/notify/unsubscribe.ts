/**
 * Each message's one-click unsubscribe link: the function's URL (or --unsubscribe-url) with a token over
 * the recipient's address hash, made with UNSUBSCRIBE_SECRET, which the function holds too.
 */
import { makeToken, unsubscribeKey, SECRET_MIN_LENGTH, TEST_TOKEN } from '../../contracts/unsubscribe-token.ts';
import { hostOf, isLoopback } from '../connect/secret-url.ts';
import { UsageError } from '../terminal.ts';

export type OneClick = { url: URL; key: CryptoKey };

function functionUrl(option: string | undefined): URL {
  const project = process.env.VITE_SUPABASE_URL;
  if (!option && !project) {
    throw new UsageError(
      'No unsubscribe URL: set VITE_SUPABASE_URL (the project URL, .env.local) or give --unsubscribe-url.',
    );
  }
  let url: URL;
  try {
    url = option ? new URL(option) : new URL('/functions/v1/unsubscribe', project);
  } catch {
    throw new UsageError(`The unsubscribe URL ${JSON.stringify(option ?? project)} is not a URL.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(hostOf(url)))) {
    throw new UsageError(`The unsubscribe URL must be https:// (mail providers ignore any other): ${url.href}`);
  }
  if (url.search || url.hash) throw new UsageError(`The unsubscribe URL takes no ?query or #fragment: ${url.href}`);
  return url;
}

export async function oneClick(option: string | undefined): Promise<OneClick> {
  const url = functionUrl(option);
  const secret = process.env.UNSUBSCRIBE_SECRET ?? '';
  if (secret.length < SECRET_MIN_LENGTH) {
    throw new UsageError(
      `UNSUBSCRIBE_SECRET is ${secret ? 'too short' : 'not set'}: set it to the secret the unsubscribe function holds ` +
        `(at least ${SECRET_MIN_LENGTH} characters; supabase/README.md, "One-click unsubscribe").`,
    );
  }
  return { url, key: await unsubscribeKey(secret) };
}

const withToken = (url: URL, token: string) => {
  const link = new URL(url);
  link.searchParams.set('token', token);
  return link.href;
};

export async function unsubscribeLink({ url, key }: OneClick, hash: Uint8Array): Promise<string> {
  return withToken(url, await makeToken(key, hash));
}

/**
 * The link of a test message (--dry-run, --to): it names nobody and is no working token, so the
 * function answers it 403, changes nothing, and never says "Unsubscribed" for a test.
 */
export const testLink = ({ url }: OneClick) => withToken(url, TEST_TOKEN);

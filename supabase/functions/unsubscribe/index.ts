/**
 * RFC 8058 one-click unsubscribe. The mail provider POSTs `List-Unsubscribe=One-Click` to the URL
 * in the message's List-Unsubscribe header: a valid token puts the recipient on the do-not-email
 * list (200, idempotent). A GET (a link scanner, a person's browser) changes nothing. The
 * function reads nothing of the list: its database role may only call private.unsubscribe.
 */
import { connection, openPool, unsubscribe } from './database.ts';
import { onceLately } from './lately.ts';
import { readToken, unsubscribeKey } from '../../../contracts/unsubscribe-token.ts';

/**
 * Any origin may read an answer (it carries no secret): the site's /unsubscribe page posts here, a
 * CORS simple request (a form body, no custom header), and shows the answer.
 */
const TEXT = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-store',
  'access-control-allow-origin': '*',
};
const answer = (status: number, body: string, headers = {}) =>
  new Response(`${body}\n`, { status, headers: { ...TEXT, ...headers } });
/** Seconds a 503 asks the sender to wait before trying again. */
const RETRY_AFTER = '60';

const HOW =
  'To unsubscribe, use the Unsubscribe button your mail program shows next to the message, ' +
  'or reply to the message with the word "unsubscribe". Opening this page changes nothing.';

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set (supabase secrets set).`);
  return value;
}

// Both checked as the function starts: a wrong setting stops it, saying which and why.
const key = unsubscribeKey(required('UNSUBSCRIBE_SECRET'));
const database = openPool(connection(required('UNSUBSCRIBE_DB_URL')));

/** The body of a one-click POST: form-encoded (RFC 8058) or multipart, with List-Unsubscribe=One-Click. */
async function isOneClick(request: Request): Promise<boolean> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return false;
  const form = await request.formData().catch(() => null);
  return form?.get('List-Unsubscribe') === 'One-Click';
}

export async function handle(request: Request): Promise<Response> {
  if (request.method === 'GET' || request.method === 'HEAD') return answer(200, HOW);
  if (request.method === 'OPTIONS') {
    const allowed = { 'access-control-allow-methods': 'POST', 'access-control-max-age': '86400' };
    return new Response(null, { status: 204, headers: { ...TEXT, ...allowed } });
  }
  if (request.method !== 'POST') return answer(405, `${request.method} is not answered here. ${HOW}`);
  if (!(await isOneClick(request))) {
    return answer(400, 'Not a one-click unsubscribe: the body must be List-Unsubscribe=One-Click (RFC 8058).');
  }
  const hash = await readToken(await key, new URL(request.url).searchParams.get('token') ?? '');
  if (!hash) {
    return answer(
      403,
      `This unsubscribe link is not valid (altered, cut short, or a test message's): nothing changed. ${HOW}`,
    );
  }
  try {
    await onceLately(hash, (hash) => unsubscribe(database, hash));
  } catch (error) {
    // The database not reached in time (no free connection, no connection, no answer) or refusing.
    // The reason only: pg never sees the URL, and its errors name no password.
    console.error(`unsubscribe failed: ${error instanceof Error ? error.message : 'unknown error'}`);
    return answer(
      503,
      'The unsubscribe could not be recorded right now: please try again later, or reply "unsubscribe".',
      { 'retry-after': RETRY_AFTER },
    );
  }
  return answer(200, 'Unsubscribed: you will get no more messages from this list.');
}

Deno.serve(handle);

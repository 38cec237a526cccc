import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { characterCount, EMAIL_MAX_LENGTH, EMAIL_SHAPE } from '../contracts/email.ts';
import { answers, corsHeaders, created, respond } from './postgrest';
import { waitlistStore } from './waitlist-store';

const WAITING_LIST = '*/rest/v1/waiting_list';

/**
 * Addresses that make the mock act out the rest of docs/product.md §8's catalogue, documented in the
 * README. taken@example.com is simply seeded in the list.
 */
export const magicAddresses = {
  error: 'error@example.com',
  offline: 'offline@example.com',
  badGateway: 'bad-gateway@example.com',
  slow: 'slow@example.com',
  denied: 'denied@example.com',
  limited: 'limited@example.com',
  flaky: 'flaky@example.com',
} as const;

const SLOW_DELAY_MS = 3000;

const badGatewayPage =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';

/**
 * The mock's private.allowed_origins: the dev page's own origin. Empty (in Node, unless a test adds
 * one) means every origin is allowed, as with an empty table. A request without Origin is allowed.
 */
export const allowedOrigins = new Set<string>(typeof location === 'undefined' ? [] : [location.origin]);

function foreignOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  return origin !== null && allowedOrigins.size > 0 && !allowedOrigins.has(origin);
}

/** flaky@example.com fails once (network failure), then goes through: a retry succeeds. */
let flakyFailedOnce = false;

/** Back to a fresh backend (the seeded list), for tests. */
export function resetMockBackend() {
  waitlistStore.reset();
  flakyFailedOnce = false;
}

async function insert(request: Request) {
  if (foreignOrigin(request)) return respond(answers.foreignOrigin);
  const row = (await request.json()) as { email?: unknown };
  const email = typeof row.email === 'string' ? row.email : null;

  switch (email?.toLowerCase()) {
    case magicAddresses.offline:
      return HttpResponse.error();
    case magicAddresses.badGateway:
      return new HttpResponse(badGatewayPage, {
        status: 502,
        headers: { ...corsHeaders, 'Content-Type': 'text/html' },
      });
    case magicAddresses.error:
      return respond(answers.internal);
    case magicAddresses.denied:
      return respond(answers.deniedByPolicy);
    case magicAddresses.limited:
      return respond(answers.overSignupLimit);
    case magicAddresses.flaky:
      flakyFailedOnce = !flakyFailedOnce;
      return flakyFailedOnce ? HttpResponse.error() : created();
    case magicAddresses.slow:
      await delay(SLOW_DELAY_MS);
      return created();
  }

  // The order in which PostgreSQL checks a row: not-null, check constraints by name, unique index.
  if (email === null) return respond(answers.nullEmail);
  if (!EMAIL_SHAPE.test(email)) return respond(answers.badFormat);
  if (characterCount(email) > EMAIL_MAX_LENGTH) return respond(answers.tooLong);
  if (waitlistStore.has(email)) return respond(answers.duplicate);
  waitlistStore.add(email);
  return created();
}

/**
 * The unsubscribe function (supabase/functions/unsubscribe/index.ts), for the /unsubscribe page: a
 * token of a real one's shape (64 bytes in base64url) unsubscribes; any other, a test message's
 * too, changes nothing (403). Any origin reads the answer, as from the function.
 */
async function unsubscribe(request: Request) {
  const answer = (status: number) =>
    new HttpResponse(null, { status, headers: { 'Access-Control-Allow-Origin': '*' } });
  const form = await request.formData().catch(() => null);
  if (form?.get('List-Unsubscribe') !== 'One-Click') return answer(400);
  return answer(/^[\w-]{86}$/.test(new URL(request.url).searchParams.get('token') ?? '') ? 200 : 403);
}

export const handlers: HttpHandler[] = [
  http.options(WAITING_LIST, () => new HttpResponse(null, { status: 204, headers: corsHeaders })),
  http.post(WAITING_LIST, ({ request }) => insert(request)),
  // The public key reads nothing of the list (what `waitlist health` checks on the real one).
  http.get(WAITING_LIST, () => respond(answers.readDenied)),
  http.post('*/functions/v1/unsubscribe', ({ request }) => unsubscribe(request)),
];

import { HttpResponse } from 'msw';

/**
 * What Supabase's data API (PostgREST in front of PostgreSQL) answers for our one call,
 * per docs/data-api.md. The database contract test holds every answer here to the
 * error the real database raises.
 */
export type PostgrestErrorBody = {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
};

type Answer = { status: number; body: PostgrestErrorBody };

export const constraintNames = {
  unique: 'waiting_list_email_key',
  format: 'waiting_list_email_format',
  length: 'waiting_list_email_length',
};

const error = (status: number, code: string, message: string, hint: string | null = null): Answer => ({
  status,
  body: { code, details: null, hint, message },
});

export const answers = {
  duplicate: error(409, '23505', `duplicate key value violates unique constraint "${constraintNames.unique}"`),
  badFormat: error(
    400,
    '23514',
    `new row for relation "waiting_list" violates check constraint "${constraintNames.format}"`,
  ),
  tooLong: error(
    400,
    '23514',
    `new row for relation "waiting_list" violates check constraint "${constraintNames.length}"`,
  ),
  nullEmail: error(
    400,
    '23502',
    'null value in column "email" of relation "waiting_list" violates not-null constraint',
  ),
  deniedByPolicy: error(401, '42501', 'new row violates row-level security policy for table "waiting_list"'),
  // A read of the list (GET /rest/v1/waiting_list) with the public key: it holds no SELECT.
  readDenied: error(401, '42501', 'permission denied for table waiting_list'),
  // Raised by the abuse guard (supabase/migrations/*_signup_guard.sql) as PostgREST's RAISE 'PGRST'.
  overSignupLimit: error(429, 'PT429', 'Too many signups from this network. Try again in a few minutes.'),
  // The guard's answer to a browser request from another website's page (private.allowed_origins).
  foreignOrigin: error(403, 'PT403', "Signups are accepted from this site's own pages only."),
  // The guard's answer to headers it cannot read (an escaped NUL in request.headers). No handler
  // acts it out: a browser cannot send a NUL in a header (fetch throws a TypeError first).
  unreadableHeaders: error(
    400,
    'PT400',
    "The request's headers could not be read.",
    'Send no NUL (\\u0000) in any header.',
  ),
  internal: error(500, 'XX000', 'internal error'),
} satisfies Record<string, Answer>;

/** Supabase's API answers cross-origin browser calls with these. */
export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'apikey, authorization, content-type, content-profile, prefer, x-client-info',
};

export const respond = ({ status, body }: Answer) => HttpResponse.json(body, { status, headers: corsHeaders });

/** 201 Created, empty body: PostgREST's default "return=minimal" for an insert. */
export const created = () => new HttpResponse(null, { status: 201, headers: corsHeaders });

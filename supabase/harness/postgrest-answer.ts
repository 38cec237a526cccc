/**
 * PostgREST's HTTP answer for a PostgreSQL error (its Error.hs mapping), so the mock can be held to
 * what the real stack would send for the error the real database raised.
 */
import { DatabaseError } from 'pg';
import type { PostgrestErrorBody } from '../../mocks/postgrest';
import type { ApiRole } from './api-request';

export type HttpAnswer = { status: number; body: PostgrestErrorBody | null };

const byPrefix: [RegExp, number][] = [
  [/^08/, 503],
  [/^09/, 500],
  [/^0[LP]/, 403],
  [/^2350[35]$/, 409],
  [/^25006$/, 405],
  [/^25/, 500],
  [/^28/, 403],
  [/^(2D|38|39|3B|40)/, 500],
  [/^53400$/, 500],
  [/^53/, 503],
  [/^5[45]/, 500],
  [/^57P01$/, 503],
  [/^(57|58|F0|HV)/, 500],
  [/^P0001$/, 400],
  [/^(P0|XX)/, 500],
  [/^(42883|42P01)$/, 404],
  [/^42P17$/, 500],
];

function httpStatus(code: string, role: ApiRole): number {
  if (code === '42501') return role === 'anon' ? 401 : 403;
  const custom = /^PT(\d{3})$/.exec(code);
  if (custom) return Number(custom[1]);
  return byPrefix.find(([pattern]) => pattern.test(code))?.[1] ?? 400;
}

/** RAISE SQLSTATE 'PGRST': the message is the JSON body, the detail carries status and headers. */
function customAnswer(error: DatabaseError): HttpAnswer {
  const body = JSON.parse(error.message) as Partial<PostgrestErrorBody>;
  const detail = JSON.parse(error.detail ?? 'null') as { status?: unknown; headers?: unknown } | null;
  if (
    typeof body.code !== 'string' ||
    typeof body.message !== 'string' ||
    typeof detail?.status !== 'number' ||
    !detail.headers
  ) {
    throw new Error(`PostgREST would answer PGRST121 (unparsable RAISE PGRST): ${error.message} / ${error.detail}`);
  }
  return {
    status: detail.status,
    body: { code: body.code, details: body.details ?? null, hint: body.hint ?? null, message: body.message },
  };
}

export function postgrestAnswer(error: DatabaseError, role: ApiRole = 'anon'): HttpAnswer {
  if (error.code === 'PGRST') return customAnswer(error);
  const code = error.code ?? '';
  return {
    status: httpStatus(code, role),
    body: { code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message },
  };
}

/** PostgREST's "return=minimal" success: 201 Created, empty body. */
export const CREATED: HttpAnswer = { status: 201, body: null };

/** PostgREST's answer to `request` as the database ran it: CREATED, or its error's answer. */
export async function answerOf(request: Promise<unknown>, role: ApiRole = 'anon'): Promise<HttpAnswer> {
  try {
    await request;
    return CREATED;
  } catch (error) {
    if (error instanceof DatabaseError) return postgrestAnswer(error, role);
    throw error;
  }
}

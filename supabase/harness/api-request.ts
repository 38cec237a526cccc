/**
 * Acting as one Data API request, the way PostgREST runs it: one transaction that sets the role,
 * JWT claims and request GUCs with set_config(..., true), then runs the statement.
 * (PostgREST would also call a pgrst.db_pre_request function here; this project configures none.)
 */
import { DatabaseError, type Client, type QueryResult } from 'pg';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export type RequestContext = {
  role?: ApiRole;
  /** What Cloudflare puts in cf-connecting-ip; null sends no such header. */
  clientIp?: string | null;
  headers?: Record<string, string>;
  /** false: roll back at the end (the statement still ran in full). */
  keep?: boolean;
  /** Prefer: timezone=..., which PostgREST applies as SET LOCAL timezone. */
  timezone?: string;
  /** PostgREST runs READ COMMITTED; a role's default_transaction_isolation could change that. */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
};

let requests = 0;
/** Each request comes from its own address unless a test names one, so the abuse guard stays out of the way. */
function freshAddress(): string {
  requests += 1;
  return `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`;
}

export async function enterRequest(
  client: Client,
  { role = 'anon', clientIp, headers = {}, timezone }: RequestContext = {},
) {
  const ip = clientIp === undefined ? freshAddress() : clientIp;
  const allHeaders = {
    'content-type': 'application/json',
    ...(ip === null ? {} : { 'cf-connecting-ip': ip }),
    ...headers,
  };
  await client.query(
    `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
            set_config('request.method', 'POST', true), set_config('request.path', '/waiting_list', true),
            set_config('request.headers', $3, true)`,
    [role, JSON.stringify({ role }), JSON.stringify(allHeaders)],
  );
  if (timezone) await client.query(`select set_config('timezone', $1, true)`, [timezone]);
}

export async function apiRequest(
  client: Client,
  sql: string,
  params: unknown[] = [],
  context: RequestContext = {},
): Promise<QueryResult> {
  await client.query(context.isolation ? `begin isolation level ${context.isolation}` : 'begin');
  try {
    await enterRequest(client, context);
    const result = await client.query(sql, params);
    await client.query(context.keep === false ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/** PostgREST's insert for POST /waiting_list with "return=minimal": the body is one object or an array. */
export const POSTGREST_INSERT = `
  with pgrst_source as (
    insert into public.waiting_list (email)
    select pgrst_body.email
    from json_to_recordset(case json_typeof($1::json) when 'array' then $1::json else json_build_array($1::json) end)
      as pgrst_body(email text)
    returning 1)
  select count(*) as inserted from pgrst_source`;

export const insertEmail = (client: Client, email: string | null, context?: RequestContext) =>
  apiRequest(client, POSTGREST_INSERT, [JSON.stringify({ email })], context);

/** The error the database answered with; fails the test if it accepted instead. */
export async function refusal(request: Promise<unknown>): Promise<DatabaseError> {
  try {
    await request;
  } catch (error) {
    if (error instanceof DatabaseError) return error;
    throw error;
  }
  throw new Error('Expected the database to refuse the request, but it was accepted');
}

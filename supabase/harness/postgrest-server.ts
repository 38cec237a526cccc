/**
 * The HTTP face of api-request.ts: POST /rest/v1/waiting_list (and a GET of it, the read the
 * public key must be refused) answered as Supabase's gateway and
 * PostgREST answer it (the key checked, every request header and the client's address in
 * request.headers, role anon, one transaction, an error as PostgREST's status and JSON body),
 * by the throwaway database. On 127.0.0.1, on a port of the system's choosing. It can also be
 * told to take requests and never answer.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { DatabaseError, type Client } from 'pg';
import { apiRequest, POSTGREST_INSERT } from './api-request';
import { answerOf, postgrestAnswer, type HttpAnswer } from './postgrest-answer';

export type Behaviour = 'database' | 'silent';

export type PostgrestServer = { url: string; behaviour: Behaviour; close(): Promise<void> };

type Answer = { status: number; body: object | null };

/** What Supabase's gateway answers a missing or wrong key, before PostgREST (docs/data-api.md). */
const INVALID_KEY: Answer = {
  status: 401,
  body: { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
};
const NO_ROUTE: Answer = {
  status: 404,
  body: { code: 'PGRST125', details: null, hint: null, message: 'Invalid path specified in request URL' },
};

/** The request's headers as PostgREST hands them to the database; cf-connecting-ip is the gateway's to set. */
function requestHeaders(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined || name === 'cf-connecting-ip' ? [] : [[name, [value].flat().join(', ')]],
    ),
  );
}

/** `api` is logged in as PostgREST logs in (authenticator); requests take turns on it. */
export async function startPostgrest(api: Client, key: string): Promise<PostgrestServer> {
  let turn: Promise<unknown> = Promise.resolve();
  const insert = (request: IncomingMessage, body: string) =>
    answerOf(
      apiRequest(api, POSTGREST_INSERT, [body], {
        clientIp: request.socket.remoteAddress ?? null,
        headers: requestHeaders(request),
      }),
    );
  /** GET /rest/v1/waiting_list?select=*&limit=n: PostgREST's read, as the key's role, the rows as a JSON array. */
  const read = async (request: IncomingMessage, limit: number): Promise<HttpAnswer | Answer> => {
    try {
      const { rows } = await apiRequest(
        api,
        `select coalesce(json_agg(t), '[]') as body from (select * from public.waiting_list limit $1) t`,
        [limit],
        { clientIp: request.socket.remoteAddress ?? null, headers: requestHeaders(request), keep: false },
      );
      return { status: 200, body: rows[0].body as object };
    } catch (error) {
      if (error instanceof DatabaseError) return postgrestAnswer(error, 'anon');
      throw error;
    }
  };
  const answer = async (request: IncomingMessage): Promise<Answer> => {
    const body = await text(request);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/rest/v1/waiting_list' || !['GET', 'POST'].includes(request.method ?? '')) return NO_ROUTE;
    if (request.headers.apikey !== key) return INVALID_KEY;
    const limit = Number(url.searchParams.get('limit') ?? 1000);
    const result = turn.then(() => (request.method === 'GET' ? read(request, limit) : insert(request, body)));
    turn = result.catch(() => undefined);
    return result;
  };

  const http = createServer((request, response) => {
    if (server.behaviour === 'silent') return; // the connection stays open, unanswered
    answer(request).then(
      ({ status, body }) => {
        response.writeHead(status, body ? { 'content-type': 'application/json' } : {});
        response.end(body ? JSON.stringify(body) : undefined);
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const server: PostgrestServer = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    behaviour: 'database',
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return server;
}

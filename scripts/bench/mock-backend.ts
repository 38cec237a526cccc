/**
 * The project's own mock of Supabase's REST answers (mocks/handlers.ts), served over plain HTTP
 * on a loopback port, so that the bench build's VITE_SUPABASE_URL can point at it and the form
 * really submits. Each Node request becomes a Fetch Request for msw's getResponse(); its answer
 * (CORS preflight included: the handlers answer OPTIONS) is written back as it is. A request no
 * handler answers gets 404, a network-error answer (HttpResponse.error()) a dropped connection.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { handlers, resetMockBackend } from '../../mocks/handlers.ts';

export type MockBackend = {
  /** e.g. http://127.0.0.1:4276, no trailing slash. */
  url: string;
  /** Every request the mock saw, "METHOD /path" in order. */
  seen: string[];
  stop: () => Promise<void>;
};

async function body(request: IncomingMessage): Promise<Buffer | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toFetchRequest(request: IncomingMessage, origin: string, payload: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url ?? '/', origin), {
    method: request.method,
    headers,
    body: payload?.length ? new Uint8Array(payload) : undefined,
  });
}

/** Listens on 127.0.0.1:`port` (fixed: the build names it in VITE_SUPABASE_URL and the CSP). */
export function startMockBackend(port: number): Promise<MockBackend> {
  resetMockBackend();
  const seen: string[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    void (async () => {
      const answer = await getResponse(handlers, toFetchRequest(request, origin, await body(request)));
      if (!answer) {
        response.writeHead(404, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
        response.end('No mock handler for this request\n');
        return;
      }
      if (answer.type === 'error') {
        response.destroy(); // the handler asked for a network failure
        return;
      }
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => {
      console.error(`mock backend: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  return new Promise((resolved, failed) => {
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolved({
        url: origin,
        seen,
        stop: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      });
    });
  });
}

/**
 * Serves a built site the way a static host or CDN would: the `_headers` file applied,
 * gzip for text, unknown paths answered with index.html (single-page fallback).
 * Usage: tsx scripts/serve.ts <dir> [port]
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { createGzip } from 'node:zlib';
import { headersFor, parseHeadersFile } from './headers-file.ts';

const [dir = 'dist', port = '4173'] = process.argv.slice(2);

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const headersPath = join(dir, '_headers');
const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];

function fileFor(pathname: string): string {
  const candidate = join(dir, normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, ''));
  if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  const index = join(candidate, 'index.html');
  return existsSync(index) ? index : join(dir, 'index.html');
}

createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  const file = fileFor(pathname);
  const type = types[extname(file)] ?? 'application/octet-stream';
  response.setHeader('Content-Type', type);
  for (const [name, value] of headersFor(rules, pathname)) response.setHeader(name, value);
  const gzip = /gzip/.test(String(request.headers['accept-encoding'])) && !type.startsWith('image/png');
  if (gzip) {
    response.setHeader('Content-Encoding', 'gzip');
    response.setHeader('Vary', 'Accept-Encoding');
  }
  response.writeHead(200);
  if (request.method === 'HEAD') return response.end();
  const body = createReadStream(file);
  (gzip ? body.pipe(createGzip()) : body).pipe(response);
}).listen(Number(port), '127.0.0.1', () => console.log(`Serving ${dir} on http://127.0.0.1:${port}`));

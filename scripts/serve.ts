/**
 * Serves a built site the way a static host or CDN would: the `_headers` file applied,
 * gzip for text, unknown paths answered with the build's 404.html and status 404 (as
 * Cloudflare Pages and GitHub Pages do); without one, index.html (single-page fallback).
 * Usage: tsx scripts/serve.ts <dir> [port]   (port 0: any free one; the log line tells which)
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const compressible = /^text\/|javascript|json|xml|svg|x-icon/;

const headersPath = join(dir, '_headers');
const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The file to send and its status; undefined for a path that cannot be decoded. */
function fileFor(pathname: string): { file: string; status: number } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const candidate = join(dir, normalize(decoded).replace(/^(\.\.[/\\])+/, ''));
  if (isFile(candidate)) return { file: candidate, status: 200 };
  if (isFile(join(candidate, 'index.html'))) return { file: join(candidate, 'index.html'), status: 200 };
  // Like Cloudflare Pages and GitHub Pages: the build's 404.html when it has one.
  const notFound = join(dir, '404.html');
  if (isFile(notFound)) return { file: notFound, status: 404 };
  if (!extname(decoded)) return { file: join(dir, 'index.html'), status: 200 };
  return { file: '', status: 404 };
}

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  const found = fileFor(pathname);
  if (!found) return response.writeHead(400).end('Bad request');
  const { file, status } = found;
  response.setHeader('Content-Type', file ? (types[extname(file)] ?? 'application/octet-stream') : 'text/plain; charset=utf-8');
  for (const [name, value] of headersFor(rules, pathname)) response.setHeader(name, value);
  if (status === 404) response.removeHeader('Cache-Control');
  if (!file) return response.writeHead(404).end('Not found');
  const type = String(response.getHeader('Content-Type'));
  const gzip = /gzip/.test(String(request.headers['accept-encoding'])) && compressible.test(type);
  if (gzip) {
    response.setHeader('Content-Encoding', 'gzip');
    response.setHeader('Vary', 'Accept-Encoding');
  }
  response.writeHead(status);
  if (request.method === 'HEAD') return response.end();
  const body = createReadStream(file).on('error', () => response.destroy());
  (gzip ? body.pipe(createGzip()) : body).pipe(response);
});

server.listen(Number(port), '127.0.0.1', () => {
  console.log(`Serving ${dir} on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

/**
 * The test servers' ports: their own, never reused, so the tests never run against a
 * developer's `npm run dev`, which may be talking to a real Supabase project.
 * Two checkouts run side by side: the first run of the config (Playwright's main process) picks an
 * offset whose ports are all free, starting from one that depends on the checkout's folder, and
 * hands it to its workers and servers in E2E_PORT_OFFSET. Setting E2E_PORT_OFFSET picks it yourself.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';

const BASE = { dev: 5273, build: 4273, inspector: 9230, nginx: 4274, nginxHttp: 4275, nginxTls: 4276 };
/** Offsets are multiples of 10 below 1000: the blocks of two offsets never overlap. */
const STEP = 10;
const OFFSETS = 100;

/** The first offset, from this checkout's folder on, whose every port nobody listens on now. */
function freeOffset(): number {
  const start = createHash('sha256').update(process.cwd()).digest().readUInt16BE(0) % OFFSETS;
  const candidates = Array.from({ length: OFFSETS }, (_, i) => ((start + i) % OFFSETS) * STEP);
  // Binding is asynchronous in Node; the config is read synchronously: ask a child process.
  const probe = `const net = require('node:net');
    const free = (port) => new Promise((resolve) => { const s = net.createServer().once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true))); });
    (async () => { for (const offset of ${JSON.stringify(candidates)}) {
      const all = await Promise.all(${JSON.stringify(Object.values(BASE))}.map((port) => free(port + offset)));
      if (all.every(Boolean)) return console.log(offset); } process.exit(1); })();`;
  return Number(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }));
}

process.env.E2E_PORT_OFFSET ??= String(freeOffset());
const offset = Number(process.env.E2E_PORT_OFFSET);

export const DEV_PORT = BASE.dev + offset;
/** The build on Cloudflare Pages' runtime (the host specs); its devtools inspector on a port of its own. */
export const PAGES_PORT = BASE.build + offset;
export const INSPECTOR_PORT = BASE.inspector + offset;
/** nginx: the site on plain HTTP, then the production shape: port 80's role and port 443's. */
export const NGINX_PORT = BASE.nginx + offset;
/** The e2e build's VITE_SITE_URL, where the browser tests open it: plain http on loopback, a build
 * for local use (its CSP says so). */
export const E2E_SITE_URL = `http://127.0.0.1:${NGINX_PORT}`;
export const NGINX_HTTP_PORT = BASE.nginxHttp + offset;
export const NGINX_TLS_PORT = BASE.nginxTls + offset;
/** The name the nginx test servers are configured for (a reserved name no DNS resolves). */
export const NGINX_SERVER_NAME = 'coming-soon.test';

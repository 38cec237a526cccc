/**
 * Serves the e2e build with nginx, with the files that ship in deploy/nginx/:
 * - NGINX_HTTP_PORT and NGINX_TLS_PORT: coming-soon.conf itself, its four servers on loopback
 *   ports, with the test's name, certificate (self-signed, made here) and paths (nginx-conf.ts).
 * - NGINX_PORT: the site on plain HTTP (root, headers, site.conf), for the browser tests and the
 *   host and header specs.
 * Playwright starts its web servers one after the other, this one after wrangler's, whose command
 * builds build/e2e first (playwright.config.ts). Runs nginx in the foreground until stopped.
 * Usage: tsx e2e/servers/nginx-server.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { nginxHeadersPath } from '../../vite/header-files';
import { NGINX_HTTP_PORT, NGINX_PORT, NGINX_SERVER_NAME, NGINX_TLS_PORT } from '../ports';
import { quoted, testServers } from './nginx-conf';

const site = resolve('build/e2e');
const headers = nginxHeadersPath(site);
const shipped = resolve('deploy/nginx');

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
if (!nginx) throw new Error("nginx is not installed: 'apt-get install -y nginx' (Debian), as .ci/run does.");
if (!existsSync(headers)) throw new Error(`${headers} is missing: build first (npm run build:e2e).`);

const dir = mkdtempSync(join(tmpdir(), 'coming-soon-nginx-'));
const cert = join(dir, 'cert.pem');
const key = join(dir, 'key.pem');
// A throwaway RSA certificate: RSA, so that the RSA suites the TLS settings refuse could be chosen.
execFileSync(
  'openssl',
  // prettier-ignore
  [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-keyout', key, '-out', cert,
    '-subj', `/CN=${NGINX_SERVER_NAME}`, '-addext', `subjectAltName=DNS:${NGINX_SERVER_NAME}`,
  ],
  { stdio: 'ignore' },
);

const include = (file: string) => `include ${quoted(file)};`;
const temp = (name: string) => `${name} ${quoted(join(dir, name))};`;
const shippedServers = testServers(readFileSync(join(shipped, 'coming-soon.conf'), 'utf8'), {
  ports: { 80: NGINX_HTTP_PORT, 443: NGINX_TLS_PORT },
  serverName: NGINX_SERVER_NAME,
  certificate: cert,
  certificateKey: key,
  root: site,
  headers,
  shipped,
});

writeFileSync(
  join(dir, 'nginx.conf'),
  [
    'daemon off;',
    // Started as root, nginx would run its worker as "nobody", who may not enter this checkout
    // (a folder only its owner can read): the worker runs as whoever started the test.
    ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
    'worker_processes 1;',
    `pid ${quoted(join(dir, 'nginx.pid'))};`,
    `error_log ${quoted(join(dir, 'error.log'))} warn;`,
    'events { worker_connections 64; }',
    'http {',
    'include /etc/nginx/mime.types;',
    'default_type application/octet-stream;',
    'access_log off;',
    ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => temp(`${name}_temp_path`)).join('\n'),
    'server {',
    `listen 127.0.0.1:${NGINX_PORT};`,
    `root ${quoted(site)};`,
    include(headers),
    include(join(shipped, 'site.conf')),
    '}',
    // Read inside http {}, as in production: it also turns server_tokens off for every server.
    shippedServers,
    '}',
  ].join('\n'),
);
const child = spawn(nginx, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill('SIGQUIT'));
child.on('exit', (code) => {
  rmSync(dir, { recursive: true, force: true }); // the config, the key, the logs of this run
  process.exit(code ?? 0);
});

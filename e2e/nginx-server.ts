/**
 * Serves the e2e build with docs/nginx.conf, as a production nginx would, for the Playwright
 * project "nginx": the file's own server block, with only its TLS lines swapped for a loopback
 * port and its paths pointed at build/e2e. Playwright starts its web servers one after the
 * other, this one after the "build" project's, which builds build/e2e first
 * (playwright.config.ts). Runs nginx in the foreground until stopped.
 * Usage: tsx e2e/nginx-server.ts <port>
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

const port = Number(process.argv[2]);
const site = resolve('build/e2e');
const headers = join(site, '_headers.nginx.conf');
/** A path as one nginx argument, whatever it holds (spaces, quotes, semicolons). */
const quoted = (path: string) => JSON.stringify(path);

/** Exact lines of docs/nginx.conf and what they become here; a line that is gone fails loudly. */
const swaps: [string, string][] = [
  ['    listen 443 ssl http2;', `    listen 127.0.0.1:${port};`],
  ['    listen [::]:443 ssl http2;', ''],
  ['    ssl_certificate     /etc/ssl/example.com/fullchain.pem;', ''],
  ['    ssl_certificate_key /etc/ssl/example.com/privkey.pem;', ''],
  ['    root /var/www/coming-soon/dist;', `    root ${quoted(site)};`],
  ['    include /etc/nginx/snippets/coming-soon-headers.conf;', `    include ${quoted(headers)};`],
];

function siteConfig(): string {
  const source = readFileSync('docs/nginx.conf', 'utf8');
  // The plain-HTTP redirect server is for port 80 in production; only the site's server is tested.
  const redirect = source.slice(source.indexOf('server {'), source.indexOf('}', source.indexOf('server {')) + 1);
  let config = source.replace(redirect, '');
  for (const [line, replacement] of swaps) {
    if (!config.includes(`${line}\n`))
      throw new Error(`docs/nginx.conf no longer has the line ${JSON.stringify(line)}`);
    config = config.replace(`${line}\n`, replacement ? `${replacement}\n` : '');
  }
  return config;
}

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
if (!nginx) throw new Error("nginx is not installed: 'apt-get install -y nginx' (Debian), as .ci/run does.");

if (!existsSync(headers)) throw new Error(`${headers} is missing: build first (npm run build:e2e).`);
const dir = mkdtempSync(join(tmpdir(), 'coming-soon-nginx-'));
const temp = (name: string) => `${name} ${quoted(join(dir, name))};`;
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
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    `  access_log off;`,
    `  ${['client_body_temp_path', 'proxy_temp_path', 'fastcgi_temp_path', 'uwsgi_temp_path', 'scgi_temp_path'].map(temp).join(' ')}`,
    siteConfig(),
    '}',
  ].join('\n'),
);
const server = spawn(nginx, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill('SIGQUIT'));
server.on('exit', (code) => process.exit(code ?? 0));

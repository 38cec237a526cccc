/**
 * The files that carry the security headers to the hosts: `_headers` (Cloudflare Pages, Netlify)
 * inside the site, and nginx `add_header` lines beside it, never in it: no host publishes them
 * (deploy/nginx/coming-soon.conf includes them as headers.conf).
 */
import { resolve } from 'node:path';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Hashed file names under /assets/ never change content; HTML keeps the host's revalidation. */
export function headersFile(headers: [string, string][]): string {
  const block = (pattern: string, lines: [string, string][]) =>
    [pattern, ...lines.map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [block('/*', headers), block('/assets/*', [['Cache-Control', IMMUTABLE]])].join('\n\n') + '\n';
}

/**
 * Where a build writes its nginx header lines: beside its folder (`dist` → `dist.nginx-headers.conf`),
 * so that no host publishes them with the site.
 */
export const nginxHeadersPath = (outDir: string) => `${resolve(outDir)}.nginx-headers.conf`;

/** The same headers as nginx `add_header` lines, for the site's server block. */
export function nginxSnippet(headers: [string, string][]): string {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return [
    "# Written by the build (vite/security-headers.ts), with this build's CSP hashes: installed as",
    '# /etc/nginx/coming-soon/headers.conf (docs/deploy.md). "always" sends them with error pages too.',
    ...headers.map(([name, value]) => `add_header ${name} ${quoted(value)} always;`),
    '',
  ].join('\n');
}

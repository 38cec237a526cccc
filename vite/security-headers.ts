/**
 * The site's security headers, written by the build for the hosts: `_headers` (Cloudflare
 * Pages, Netlify) and `_headers.nginx.conf` (included by docs/nginx.conf), one source for both.
 * The CSP allows the build's own inline <style> and <script> elements by hash, read from the
 * emitted pages.
 */
import type { Plugin } from 'vite';
import { inlineTexts } from './html-edit.ts';
import { cspHash, sonnerCss } from './sonner-style-hash.ts';

/**
 * Powerful features the page never uses. Only names Chromium 156 recognizes: an unknown one
 * logs a console error (the e2e build tests fail on any). Not on Linux builds: bluetooth, web-share.
 */
const deniedFeatures = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'clipboard-read',
  'clipboard-write',
  'compute-pressure',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'identity-credentials-get',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'storage-access',
  'sync-xhr',
  'usb',
  'window-management',
  'xr-spatial-tracking',
];

/**
 * The texts of the <style> and <script> elements the built HTML carries (its inlined stylesheet
 * and page script): each is allowed by its hash. No other inline script, no style="" attribute,
 * is ever allowed.
 */
type Inline = { styles: string[]; scripts: string[] };

/** The inline <style> and <script> texts of the built pages (their HTML). */
export const inlineElements = (pages: string[]): Inline => ({
  styles: pages.flatMap((html) => inlineTexts(html, 'style')),
  scripts: pages.flatMap((html) => inlineTexts(html, 'script')),
});

/** Strict-Transport-Security: two years; `includeSubDomains; preload` only when asked for (README). */
export type Hsts = 'preload' | 'this-host';

/** Hash sources, sorted: the policy does not depend on the order the pages were written in. */
const sources = (texts: string[]) => [...new Set(texts.map((text) => ` '${cspHash(text)}'`))].sort().join('');

function contentSecurityPolicy(supabaseOrigin: string, inline: Inline): string {
  const origin = new URL(supabaseOrigin).origin;
  return [
    "default-src 'self'",
    `script-src 'self'${sources(inline.scripts)}`,
    // sonner's runtime <style> is appended empty, then filled: both states by hash.
    `style-src 'self'${sources(['', sonnerCss(), ...inline.styles])}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${origin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
    'upgrade-insecure-requests',
  ].join('; ');
}

export function securityHeaders(supabaseOrigin: string, inline: Inline, hsts: Hsts): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(supabaseOrigin, inline)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', deniedFeatures.map((feature) => `${feature}=()`).join(', ')],
    ['Strict-Transport-Security', `max-age=63072000${hsts === 'preload' ? '; includeSubDomains; preload' : ''}`],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['X-Frame-Options', 'DENY'],
  ];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Hashed file names under /assets/ never change content; HTML keeps the host's revalidation. */
function headersFile(headers: [string, string][]): string {
  const block = (pattern: string, lines: [string, string][]) =>
    [pattern, ...lines.map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [block('/*', headers), block('/assets/*', [['Cache-Control', IMMUTABLE]])].join('\n\n') + '\n';
}

/** The same headers as nginx `add_header` lines, for the server block of docs/nginx.conf. */
function nginxSnippet(headers: [string, string][]): string {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return [
    "# Written by the build (vite/security-headers.ts), with this build's CSP hashes: include it in",
    '# the server block (see docs/nginx.conf). "always" sends the headers with error pages too.',
    ...headers.map(([name, value]) => `add_header ${name} ${quoted(value)} always;`),
    '',
  ].join('\n');
}

/**
 * Emits `_headers` and `_headers.nginx.conf` next to the pages, hashing the <style> and <script>
 * elements they carry; after every other plugin has written the pages (order: 'post').
 */
export function securityHeadersFiles(env: { supabaseUrl?: string; hsts: Hsts }): Plugin {
  return {
    name: 'security-headers',
    apply: 'build',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const pages = Object.values(bundle).flatMap((file) =>
          file.type === 'asset' && file.fileName.endsWith('.html') ? [String(file.source)] : [],
        );
        const inline = inlineElements(pages);
        if (!env.supabaseUrl) throw new Error('security-headers: no Supabase URL (vite/env-check.ts runs first)');
        const headers = securityHeaders(env.supabaseUrl, inline, env.hsts);
        this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(headers) });
        this.emitFile({ type: 'asset', fileName: '_headers.nginx.conf', source: nginxSnippet(headers) });
      },
    },
  };
}

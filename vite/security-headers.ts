/**
 * The site's security headers, written by the build for the hosts: `_headers` (Cloudflare
 * Pages, Netlify) and `_headers.nginx.conf` (included by docs/nginx.conf), one source for both.
 * The CSP allows the build's own inline <style> elements by hash, read from the emitted pages.
 */
import type { Plugin } from 'vite';
import { elements } from './html-edit.ts';
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
 * The texts of the <style> elements the built HTML carries (its inlined stylesheets): each is
 * allowed by its hash. No inline script, no style="" attribute is ever allowed.
 */
type Inline = { styles: string[] };

/** Strict-Transport-Security: two years; `includeSubDomains; preload` only when asked for (README). */
export type Hsts = 'preload' | 'this-host';

const sources = (texts: string[]) => [...new Set(texts.map((text) => ` '${cspHash(text)}'`))].join('');

function contentSecurityPolicy(supabaseOrigin: string, inline: Inline): string {
  const origin = new URL(supabaseOrigin).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
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

/** Emits `_headers` and `_headers.nginx.conf` next to the pages, hashing the <style> elements they carry. */
export function securityHeadersFiles(env: { supabaseUrl?: string; hsts: Hsts }): Plugin {
  return {
    name: 'security-headers',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const pages = Object.values(bundle).filter((file) => file.type === 'asset' && file.fileName.endsWith('.html'));
      if (pages.length === 0) return; // the server bundle
      const styles = pages.flatMap((page) =>
        elements(String(page.type === 'asset' ? page.source : ''))
          .filter((element) => element.tagName === 'style')
          .map((element) => element.childNodes.map((text) => ('value' in text ? text.value : '')).join('')),
      );
      if (!env.supabaseUrl) throw new Error('security-headers: no Supabase URL (vite/env-check.ts runs first)');
      const headers = securityHeaders(env.supabaseUrl, { styles }, env.hsts);
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(headers) });
      this.emitFile({ type: 'asset', fileName: '_headers.nginx.conf', source: nginxSnippet(headers) });
    },
  };
}

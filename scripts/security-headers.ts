/**
 * The site's security headers, and the `_headers` file (Netlify, Cloudflare Pages) that
 * carries them. docs/nginx.conf repeats them for nginx.
 */
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
export type Inline = { styles?: string[] };

const sources = (texts: string[]) => [...new Set(texts.map((text) => ` '${cspHash(text)}'`))].join('');

function contentSecurityPolicy(supabaseOrigin: string, inline: Inline = {}): string {
  const origin = new URL(supabaseOrigin).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    // sonner's runtime <style> is appended empty, then filled: both states by hash.
    `style-src 'self'${sources(['', sonnerCss(), ...(inline.styles ?? [])])}`,
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

function securityHeaders(supabaseOrigin: string, inline: Inline = {}): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(supabaseOrigin, inline)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', deniedFeatures.map((feature) => `${feature}=()`).join(', ')],
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains; preload'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['X-Frame-Options', 'DENY'],
  ];
}

/** Hashed file names under /assets/ never change content; HTML keeps the host's revalidation. */
export function renderHeadersFile(supabaseOrigin: string, inline: Inline = {}): string {
  const block = (pattern: string, headers: [string, string][]) =>
    [pattern, ...headers.map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [
    block('/*', securityHeaders(supabaseOrigin, inline)),
    block('/assets/*', [['Cache-Control', 'public, max-age=31536000, immutable']]),
  ].join('\n\n') + '\n';
}

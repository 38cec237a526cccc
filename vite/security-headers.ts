/**
 * The site's security headers, written by the build for the hosts, from one source: `_headers`
 * in the site (Cloudflare Pages, Netlify) and the same lines for nginx beside the site, never in
 * it (vite/header-files.ts).
 * The CSP allows the build's own inline <style> and <script> elements by hash, read from the
 * emitted pages.
 */
import { writeFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { envCheckApi, type EnvCheckApi } from './env-check.ts';
import type { Hsts } from './env-types.ts';
import { headersFile, nginxHeadersPath, nginxSnippet } from './header-files.ts';
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

/** Hash sources, sorted: the policy does not depend on the order the pages were written in. */
const sources = (texts: string[]) => [...new Set(texts.map((text) => ` '${cspHash(text)}'`))].sort().join('');

/** The origins a build names: its Supabase project and the site's own public address. */
export type Origins = { supabase: string; site: string };

/**
 * A build for this machine names a plain-http origin (vite/env-check.ts allows http on loopback
 * only): its pages are served from 127.0.0.1 over http, or it talks to a local Supabase. Its CSP
 * leaves out upgrade-insecure-requests (docs/architecture.md, "Content-Security-Policy and
 * headers", says why); a deployed build names https origins only and keeps the directive.
 */
export const forLocalUse = (origins: Origins) =>
  [origins.supabase, origins.site].some((origin) => new URL(origin).protocol === 'http:');

function contentSecurityPolicy(origins: Origins, inline: Inline): string {
  return [
    "default-src 'self'",
    `script-src 'self'${sources(inline.scripts)}`,
    // sonner's runtime <style> is appended empty, then filled: both states by hash.
    `style-src 'self'${sources(['', sonnerCss(), ...inline.styles])}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${new URL(origins.supabase).origin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
    ...(forLocalUse(origins) ? [] : ['upgrade-insecure-requests']),
  ].join('; ');
}

export function securityHeaders(origins: Origins, inline: Inline, hsts: Hsts): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(origins, inline)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', deniedFeatures.map((feature) => `${feature}=()`).join(', ')],
    ['Strict-Transport-Security', `max-age=63072000${hsts === 'preload' ? '; includeSubDomains; preload' : ''}`],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    // No other site may embed the site's files (scripts, images) in its pages.
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['X-Frame-Options', 'DENY'],
  ];
}

/**
 * Emits `_headers` next to the pages and writes the nginx lines beside the output folder, hashing
 * the <style> and <script> elements the pages carry; after every other plugin has written the
 * pages (order: 'post'). The origins and HSTS setting are vite/env-check.ts's checked values.
 */
export function securityHeadersFiles(): Plugin {
  let nginxLines: string | undefined;
  let envCheck: EnvCheckApi | undefined;
  return {
    name: 'security-headers',
    apply: 'build',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(config) {
      envCheck = envCheckApi(config);
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const pages = Object.values(bundle).flatMap((file) =>
          file.type === 'asset' && file.fileName.endsWith('.html') ? [String(file.source)] : [],
        );
        const inline = inlineElements(pages);
        const env = envCheck?.checked;
        if (!env?.supabaseUrl || !env.siteUrl) {
          throw new Error('security-headers: no Supabase or site URL (vite/env-check.ts runs first)');
        }
        const headers = securityHeaders({ supabase: env.supabaseUrl, site: env.siteUrl }, inline, env.hsts);
        this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(headers) });
        nginxLines = nginxSnippet(headers);
      },
    },
    writeBundle(options) {
      if (nginxLines && options.dir) writeFileSync(nginxHeadersPath(options.dir), nginxLines);
      nginxLines = undefined; // written once, for the build that has the pages
    },
  };
}

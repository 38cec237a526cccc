/**
 * What the host sends with the pages: the headers the build wrote for it, and a strict CSP.
 * Runs against every host the build is tested on (projects "build" and "nginx").
 */
import { readFileSync } from 'node:fs';
import { elements } from '../vite/html-edit';
import { securityHeaders } from '../vite/security-headers';
import { E2E_SUPABASE_URL } from './e2e-backend';
import { expect, test } from './fixtures';

const pages = ['index.html', '404.html'].map((file) => readFileSync(`build/e2e/${file}`, 'utf8'));
const inlineStyles = pages.flatMap((html) =>
  elements(html)
    .filter((element) => element.tagName === 'style')
    .map((element) => element.childNodes.map((text) => ('value' in text ? text.value : '')).join('')),
);
/** What vite/security-headers.ts makes of this build (HSTS_PRELOAD unset). */
const expected = securityHeaders(E2E_SUPABASE_URL, { styles: inlineStyles }, 'this-host');

test('pages are served with the security headers the build wrote, and a strict CSP', async ({ request }) => {
  for (const path of ['/', '/missing']) {
    const headers = (await request.get(path)).headers();
    for (const [name, value] of expected) expect(headers[name.toLowerCase()], `${name} of ${path}`).toBe(value);
    const csp = Object.fromEntries(
      headers['content-security-policy'].split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'", E2E_SUPABASE_URL]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(headers['content-security-policy']).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(headers['strict-transport-security']).toBe('max-age=63072000');
  }
});

test('the built HTML carries no inline script', () => {
  for (const html of pages) {
    for (const script of elements(html).filter((element) => element.tagName === 'script')) {
      expect(script.attrs.find((attr) => attr.name === 'src')?.value).toMatch(/^\/assets\//);
    }
  }
});

/**
 * What the host sends with the pages: the headers the build wrote for it, and a strict CSP.
 * Runs against every host the build is tested on (projects "pages" and "nginx").
 */
import { readFileSync } from 'node:fs';
import { cspHash } from '../vite/sonner-style-hash';
import { inlineTexts } from '../vite/html-edit';
import { inlineElements, securityHeaders } from '../vite/security-headers';
import { E2E_SUPABASE_URL } from './e2e-backend';
import { E2E_SITE_URL } from './ports';
import { expect, test } from './fixtures';

const pages = ['index.html', '404.html', 'unsubscribe.html'].map((file) => readFileSync(`build/e2e/${file}`, 'utf8'));
const inline = inlineElements(pages);
/** What vite/security-headers.ts makes of this build (HSTS_PRELOAD unset). */
const expected = securityHeaders({ supabase: E2E_SUPABASE_URL, site: E2E_SITE_URL }, inline, 'this-host');

/** The island's chunk, as the landing page names it. */
const chunk = pages[0].match(/\/assets\/waitlist-[\w-]+\.js/)![0];

test('pages and files are served with the security headers the build wrote, and a strict CSP', async ({ request }) => {
  for (const path of ['/', '/missing', '/unsubscribe', chunk]) {
    const headers = (await request.get(path)).headers();
    for (const [name, value] of expected) expect(headers[name.toLowerCase()], `${name} of ${path}`).toBe(value);
    const csp = Object.fromEntries(
      headers['content-security-policy'].split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    expect(csp['default-src']).toEqual(["'self'"]);
    // The pages' own inline scripts, by hash, and nothing else inline.
    expect(csp['script-src']).toEqual(["'self'", ...inline.scripts.map((script) => `'${cspHash(script)}'`).sort()]);
    expect(csp['connect-src']).toEqual(["'self'", E2E_SUPABASE_URL]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(headers['content-security-policy']).not.toMatch(/unsafe-eval|unsafe-inline/);
    // A build for local use (its site is http on loopback): no upgrade to https (why:
    // docs/architecture.md). A deployed build has it (vite/security-headers.test.ts).
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBe('max-age=63072000');
    expect(headers['cross-origin-resource-policy'], `CORP of ${path}`).toBe('same-origin');
  }
});

test('each page carries one script, inline, and names no script file', () => {
  for (const html of pages) {
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module">']);
    expect(inlineTexts(html, 'script')).toEqual([expect.stringMatching(/\S/)]);
  }
});

import { readFileSync } from 'node:fs';
import { parseHeadersFile } from '../scripts/headers-file';
import { E2E_SUPABASE_URL } from './e2e-backend';
import { expect, test } from './fixtures';

const rules = parseHeadersFile(readFileSync('build/e2e/_headers', 'utf8'));

test('pages are served with the headers of _headers, and a strict CSP', async ({ request }) => {
  for (const path of ['/', '/missing']) {
    const response = await request.get(path);
    const headers = response.headers();
    for (const [name, value] of rules.find((rule) => rule.pattern.test(path))!.headers) {
      expect(headers[name.toLowerCase()], name).toBe(value);
    }
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
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toMatch(/camera=\(\)/);
    expect(headers['strict-transport-security']).toMatch(/max-age=\d{8}/);
  }
});

test('the built HTML carries no inline script', () => {
  for (const file of ['index.html', '404.html']) {
    const html = readFileSync(`build/e2e/${file}`, 'utf8');
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag, file).toMatch(/\ssrc="/);
  }
});

import { describe, expect, it } from 'vitest';
import { securityHeaders, type Origins } from './security-headers';

const inline = { styles: ['body{margin:0}'], scripts: ['import("/assets/waitlist.js")'] };
const deployed: Origins = { supabase: 'https://abc.supabase.co', site: 'https://launch.example.com' };

const csp = (origins: Origins) =>
  new Map(securityHeaders(origins, inline, 'this-host')).get('Content-Security-Policy')!.split('; ');

describe('upgrade-insecure-requests', () => {
  it('is in the policy of a deployed build (every origin it names is https)', () => {
    expect(csp(deployed)).toContain('upgrade-insecure-requests');
  });

  it.each([
    ['the site is previewed over http on this machine', { ...deployed, site: 'http://127.0.0.1:4173' }],
    ['the site is previewed over http on localhost', { ...deployed, site: 'http://localhost:4173' }],
    ['the build talks to a local Supabase over http', { ...deployed, supabase: 'http://127.0.0.1:54321' }],
  ])('is left out of a build for local use: %s', (_case, origins) => {
    expect(csp(origins)).not.toContain('upgrade-insecure-requests');
  });

  it('is all that a build for local use leaves out', () => {
    const local = { ...deployed, site: 'http://127.0.0.1:4173' };
    expect(csp(local)).toEqual(csp(deployed).filter((directive) => directive !== 'upgrade-insecure-requests'));
    const others = (origins: Origins) => securityHeaders(origins, inline, 'this-host').slice(1);
    expect(others(local)).toEqual(others(deployed));
  });
});

describe('the headers every host sends', () => {
  it("keep the site's files to its own pages: Cross-Origin-Resource-Policy same-origin, beside COOP", () => {
    const headers = new Map(securityHeaders(deployed, inline, 'this-host'));
    expect(headers.get('Cross-Origin-Resource-Policy')).toBe('same-origin');
    expect(headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
  });
});

import { describe, expect, it } from 'vitest';
import { checkEnv } from './env-check';

const jwt = (payload: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJl`;
const production = {
  VITE_SUPABASE_URL: 'https://abc.supabase.co',
  VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_abc',
  VITE_SITE_URL: 'https://coming-soon.example.org',
};

describe('checkEnv', () => {
  it('accepts a complete production setting, and the dev server with nothing (mock backend)', () => {
    expect(checkEnv(production, { build: true }).problems).toEqual([]);
    expect(checkEnv({}, { build: false }).problems).toEqual([]);
    expect(checkEnv({ ...production, VITE_SUPABASE_URL: 'http://127.0.0.1:54321' }, { build: true }).problems).toEqual(
      [],
    );
  });

  it('lists everything a production build lacks, in one go', () => {
    expect(checkEnv({}, { build: true }).problems).toEqual([
      'VITE_SUPABASE_URL is missing (a production build needs a Supabase project)',
      'VITE_SUPABASE_PUBLISHABLE_KEY (or VITE_SUPABASE_ANON_KEY) is missing',
      "VITE_SITE_URL is missing: the site's public address, for its canonical link and social cards",
    ]);
  });

  it.each([
    [{ VITE_SUPABASE_URL: 'http://abc.supabase.co' }, 'VITE_SUPABASE_URL must be an https:// URL'],
    [{ VITE_SUPABASE_URL: 'https://u:p@abc.supabase.co/rest/v1?x' }, 'VITE_SUPABASE_URL must be an origin alone'],
    [{ VITE_SUPABASE_URL: 'https://your-project-ref.supabase.co/' }, 'VITE_SUPABASE_URL is still a placeholder'],
    [{ VITE_SITE_URL: 'https://site.example/"><meta http-equiv="refresh">' }, 'VITE_SITE_URL must be an origin alone'],
    [{ VITE_SITE_URL: 'https://site.example/app?x=1' }, 'VITE_SITE_URL must be an origin alone'],
    [{ VITE_SUPABASE_PUBLISHABLE_KEY: ' sb_secret_abc' }, 'holds a secret key'],
    [{ VITE_SUPABASE_ANON_KEY: `Bearer ${jwt({ role: 'service_role' })}` }, 'holds a JWT with role "service_role"'],
    [{ VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_abc ' }, 'has spaces around its value'],
    [{ VITE_SUPABASE_URL: 'abc.supabase.co' }, 'VITE_SUPABASE_URL is not a URL'],
    [{ VITE_SITE_URL: 'https://coming-soon.example.org/' }, 'VITE_SITE_URL must be an origin alone'],
    [{ VITE_SITE_URL: 'https://your-domain.example' }, 'VITE_SITE_URL is still a placeholder'],
    [{ VITE_SUPABASE_URL: 'https://your-project-ref.supabase.co' }, 'VITE_SUPABASE_URL is still a placeholder'],
    [{ VITE_SITE_URL: 'https://example.com' }, "VITE_SITE_URL is still a placeholder (.env.example's, or example.com)"],
    [{ VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_secret_abc' }, 'holds a secret key'],
    [{ VITE_SUPABASE_ANON_KEY: jwt({ role: 'service_role' }) }, 'holds a JWT with role "service_role"'],
    [{ VITE_ANALYTICS_TOKEN: 'sb_secret_abc' }, 'VITE_ANALYTICS_TOKEN holds a secret key'],
    [{ VITE_API_MOCKING: 'yes' }, 'VITE_API_MOCKING must be "on" or "off"'],
    [{ HSTS_PRELOAD: 'true' }, 'HSTS_PRELOAD must be "on" or "off"'],
  ])('refuses %o', (change, problem) => {
    const { problems } = checkEnv({ ...production, ...change }, { build: true });
    expect(problems.join('\n')).toContain(problem);
  });

  it('accepts the anon JWT, and HSTS preload only when asked for', () => {
    expect(
      checkEnv({ ...production, VITE_SUPABASE_PUBLISHABLE_KEY: jwt({ role: 'anon' }) }, { build: true }).problems,
    ).toEqual([]);
    expect(checkEnv(production, { build: true }).checked.hsts).toBe('this-host');
    expect(checkEnv({ ...production, HSTS_PRELOAD: 'on' }, { build: true }).checked.hsts).toBe('preload');
  });

  it('lets the dev server run on its committed site address and refuses a half-configured backend', () => {
    expect(checkEnv({ VITE_SITE_URL: 'http://localhost:5173' }, { build: false }).problems).toEqual([]);
    expect(checkEnv({ VITE_API_MOCKING: 'off' }, { build: false }).problems).toHaveLength(2);
  });
});

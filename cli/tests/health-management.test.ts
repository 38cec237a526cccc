/**
 * health reads the hosted project's settings through the Management API (a stand-in here) when
 * SUPABASE_ACCESS_TOKEN and the project ref are known: sign-ups on, or a schema exposed beside
 * `public`, is a problem whose fix is `waitlist setup`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_TOKEN } from '../connect/management';
import { findingsOf } from './health-stand-ins';
import { REF, startManagementApi, TOKEN } from './management-api';
import { waitlist } from './run-cli';

let api: Awaited<ReturnType<typeof startManagementApi>>;
beforeAll(async () => {
  api = await startManagementApi();
});
afterAll(() => api.close());

async function projectSettings(env: Record<string, string>) {
  const base = { DATABASE_URL: '', SUPABASE_API_URL: api.url, SUPABASE_PROJECT_REF: REF, SUPABASE_ACCESS_TOKEN: TOKEN };
  const findings = findingsOf(await waitlist(['health', '--json'], { ...base, ...env }));
  return findings.find((finding) => finding.check === 'project settings');
}

describe('health: the hosted project settings', () => {
  it('names sign-ups left on and every schema exposed beside public, with setup as the fix', async () => {
    Object.assign(api.state, { disableSignup: false, dbSchema: 'public,graphql_public' });
    const found = await projectSettings({});
    expect(found).toMatchObject({ outcome: 'problem', fix: 'Run `npm run waitlist -- setup` (it pushes both).' });
    expect(found!.says).toContain('Auth lets anyone with the publishable key sign up');
    expect(found!.says).toContain('exposes public, graphql_public');
    expect(api.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v1/projects/${REF}/postgrest` });
  });

  it('is ok once sign-ups are off and only public is exposed; the ref may come from VITE_SUPABASE_URL', async () => {
    Object.assign(api.state, { disableSignup: true, dbSchema: 'public' });
    const env = { SUPABASE_PROJECT_REF: '', VITE_SUPABASE_URL: `https://${REF}.supabase.co` };
    expect(await projectSettings(env)).toMatchObject({ outcome: 'ok' });
  });

  it('is a setup problem when the token is refused; without a token, says it was skipped', async () => {
    expect(await projectSettings({ SUPABASE_ACCESS_TOKEN: 'sbp_wrong' })).toMatchObject({ outcome: 'setup' });
    expect(await projectSettings({ SUPABASE_ACCESS_TOKEN: '' })).toMatchObject({ outcome: 'skipped', says: NO_TOKEN });
  });

  it('refuses a Management API over plain http to another machine', async () => {
    const found = await projectSettings({ SUPABASE_API_URL: 'http://api.example' });
    expect(found).toMatchObject({
      outcome: 'setup',
      says: 'SUPABASE_API_URL must be https:// (plain http only to this machine).',
    });
  });
});

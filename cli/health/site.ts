/** The deployed page, fetched as a browser would: 200, the build's security headers, a CSP that lets it call the API. */
import { ok, problem, type Finding } from './finding.ts';
import { request } from './http.ts';
import type { Settings } from './settings.ts';

/** The headers every build sends (vite/security-headers.ts; cli/tests/health.test.ts holds the two lists equal). */
export const SECURITY_HEADERS = [
  ...['content-security-policy', 'x-content-type-options', 'referrer-policy', 'permissions-policy'],
  ...['strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'x-frame-options'],
];

const DEPLOY_FIX = "look at the host's dashboard and redeploy the site (docs/deploy.md).";

/** The sources of a CSP directive, or undefined when the policy does not name it. */
function directive(policy: string, name: string): string[] | undefined {
  for (const part of policy.split(';')) {
    const [directiveName, ...sources] = part.trim().split(/\s+/);
    if (directiveName?.toLowerCase() === name) return sources;
  }
  return undefined;
}

function cspFinding(policy: string, settings: Settings): Finding {
  const sources = directive(policy, 'connect-src') ?? directive(policy, 'default-src') ?? ['*'];
  if (sources.includes('*') || sources.some((source) => source.replace(/\/$/, '') === settings.api)) {
    return ok('CSP', `The page may call ${settings.api} (connect-src).`);
  }
  return problem(
    'CSP',
    `The deployed page may only call ${sources.join(' ')} (connect-src), not ${settings.api}: it was built for ` +
      'another Supabase project, so its signups fail or go elsewhere.',
    `Build the site with VITE_SUPABASE_URL=${settings.api} and redeploy it (or correct VITE_SUPABASE_URL here).`,
  );
}

export async function checkSite(settings: Settings, seconds: number): Promise<Finding[]> {
  const answer = await request(`${settings.site}/`, { headers: { accept: 'text/html' } }, seconds);
  const fix = `Check VITE_SITE_URL, then ${DEPLOY_FIX}`;
  if ('failure' in answer) return [problem('site', `${settings.site} ${answer.failure}.`, fix)];
  if (answer.status !== 200)
    return [problem('site', `${settings.site} answered ${answer.status} instead of 200.`, fix)];
  const missing = SECURITY_HEADERS.filter((name) => !answer.headers.has(name));
  const site = missing.length
    ? problem(
        'site',
        `${settings.site} answers 200 without ${missing.join(', ')}.`,
        "Deploy the build's header file with the site (_headers, or nginx's headers.conf): docs/deploy.md.",
      )
    : ok('site', `${settings.site} answers 200 with every security header the build sends.`);
  const policy = answer.headers.get('content-security-policy');
  return policy ? [site, cspFinding(policy, settings)] : [site];
}

/**
 * The deployed page, fetched as a browser would: 200, the build's security headers at their strength, a CSP that
 * lets it call the API.
 */
import { ok, problem, type Finding } from '../../findings/finding.ts';
import { cspWeaknesses, directives, headerWeaknesses } from './header-values.ts';
import { request } from '../../connect/http.ts';
import type { Settings } from './settings.ts';

/** The headers every build sends (vite/security-headers.ts; cli/tests/health.test.ts holds the two lists equal). */
export const SECURITY_HEADERS = [
  ...['content-security-policy', 'x-content-type-options', 'referrer-policy', 'permissions-policy'],
  ...['strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'x-frame-options'],
];

const HEADER_FIX = "Deploy the build's header file with the site (_headers, or nginx's headers.conf): docs/deploy.md.";

function cspFinding(policy: string, { site, api }: Settings): Finding {
  const found = directives(policy);
  const sources = found.get('connect-src') ?? found.get('default-src') ?? ['*'];
  if (!sources.includes('*') && !sources.some((source) => source.replace(/\/$/, '') === api)) {
    return problem(
      'CSP',
      `The deployed page may only call ${sources.join(' ')} (connect-src), not ${api}: it was built for ` +
        'another Supabase project, so its signups fail or go elsewhere.',
      `Build the site with VITE_SUPABASE_URL=${api} and redeploy it (or correct VITE_SUPABASE_URL here).`,
    );
  }
  const weak = cspWeaknesses(policy, [site, api]);
  if (weak.length) {
    return problem('CSP', `The deployed policy is weaker than the build's: ${weak.join('; ')}.`, HEADER_FIX);
  }
  return ok('CSP', `The page may call ${api} and its own origin alone, and runs only its own files and hashes.`);
}

export async function checkSite(settings: Settings, seconds: number): Promise<Finding[]> {
  const { site } = settings;
  const answer = await request(`${site}/`, { headers: { accept: 'text/html' } }, seconds);
  const fix = "Check VITE_SITE_URL, then look at the host's dashboard and redeploy the site (docs/deploy.md).";
  if ('failure' in answer) return [problem('site', `${site} ${answer.failure}.`, fix)];
  if (answer.status !== 200) {
    return [problem('site', `${site} answered ${answer.status} instead of 200.`, fix)];
  }
  const missing = SECURITY_HEADERS.filter((name) => !answer.headers.has(name));
  const faults = headerWeaknesses(answer.headers);
  if (missing.length) faults.unshift(`without ${missing.join(', ')}`);
  const page = faults.length
    ? problem('site', `${site} answers 200 ${faults.join('; ')}.`, HEADER_FIX)
    : ok('site', `${site} answers 200 with every security header the build sends, each judged as strong.`);
  const policy = answer.headers.get('content-security-policy');
  return policy ? [page, cspFinding(policy, settings)] : [page];
}

/**
 * Whether the deployed headers say what the build's say (vite/security-headers.ts), judged by their
 * shape: the CSP's hashes change with every build, so a policy is read for what it allows.
 */

const YEAR = 31_536_000;
const PRIVATE_REFERRERS = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];

/** A policy's directives, name → sources; the first of a repeated name counts, as in browsers. */
export function directives(policy: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !found.has(name.toLowerCase())) found.set(name.toLowerCase(), sources);
  }
  return found;
}

/** A source that lets in what nobody chose: a wildcard, a whole scheme, or an unsafe- keyword. */
const loose = (directive: string, source: string) =>
  source.includes('*') ||
  /^(https?|wss?):$/i.test(source) ||
  /^'unsafe-/i.test(source) ||
  (/^(default|script)-src$/.test(directive) && /^(data|blob):$/i.test(source));

/** What the policy allows beyond the build's, each named; `origins`: the site and the Supabase project. */
export function cspWeaknesses(policy: string, origins: string[]): string[] {
  const found = directives(policy);
  const weak = [...found].flatMap(([name, sources]) => {
    const wide = sources.filter((source) => loose(name, source));
    return wide.length ? [`${name} allows ${wide.join(' ')}`] : [];
  });
  if (!found.has('default-src')) weak.push('there is no default-src, so what no directive names loads from anywhere');
  const ancestors = found.get('frame-ancestors')?.join(' ');
  if (ancestors !== "'none'") weak.push(`frame-ancestors is ${ancestors ? ancestors : 'missing'}, not 'none'`);
  const connect = found.get('connect-src') ?? found.get('default-src') ?? [];
  const elsewhere = connect.filter(
    (source) => !loose('connect-src', source) && source !== "'self'" && !origins.includes(source.replace(/\/$/, '')),
  );
  if (elsewhere.length) weak.push(`connect-src also allows ${elsewhere.join(' ')}`);
  return weak;
}

/** The other headers' values weaker than the build's, each named; an absent one is not judged here. */
export function headerWeaknesses(headers: Headers): string[] {
  const value = (name: string) => headers.get(name)?.trim() ?? '';
  const hsts = value('strict-transport-security');
  const maxAge = Number(/(?:^|;)\s*max-age\s*=\s*"?(\d+)/i.exec(hsts)?.[1] ?? 0);
  // Browsers use the last policy they know of a comma-separated list.
  const referrer =
    value('referrer-policy')
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .at(-1) ?? '';
  const judged = (name: string, weak: boolean) => headers.has(name) && weak;
  return [
    judged('strict-transport-security', maxAge < YEAR) &&
      `Strict-Transport-Security "${hsts}" keeps HTTPS for less than a year`,
    judged('x-content-type-options', value('x-content-type-options').toLowerCase() !== 'nosniff') &&
      `X-Content-Type-Options is "${value('x-content-type-options')}", not nosniff`,
    judged('referrer-policy', !PRIVATE_REFERRERS.includes(referrer)) &&
      `Referrer-Policy "${value('referrer-policy')}" is weaker than strict-origin-when-cross-origin`,
    judged('x-frame-options', !/^(deny|sameorigin)$/i.test(value('x-frame-options'))) &&
      `X-Frame-Options "${value('x-frame-options')}" lets other sites frame the page`,
  ].filter((weakness): weakness is string => Boolean(weakness));
}

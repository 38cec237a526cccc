/** Whether the deployed headers say what the build's say, judged by shape: a CSP's hashes change each build. */

const YEAR = 31_536_000;
const PRIVATE_REFERRERS = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const KNOWN_REFERRERS = [
  ...PRIVATE_REFERRERS,
  ...'no-referrer-when-downgrade origin origin-when-cross-origin unsafe-url'.split(' '),
];

/** A policy's directives, name → sources; the first of a repeated name counts, as in browsers. */
export function directives(policy: string) {
  const found = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !found.has(name.toLowerCase())) found.set(name.toLowerCase(), sources);
  }
  return found;
}

/** Where the build allows its own files and their hashes alone: there no other source is right. */
const OWN_ONLY = /^(default|script|style)-src(-elem|-attr)?$/;

/**
 * A source that lets in what nobody chose: beyond the page's own files where OWN_ONLY holds, else a wildcard, a whole
 * scheme or an unsafe- keyword.
 */
const loose = (directive: string, source: string) =>
  OWN_ONLY.test(directive)
    ? !/^('self'|'none'|'sha(256|384|512)-[a-z0-9+/_=-]+')$/i.test(source)
    : source.includes('*') || /^(https?|wss?):$/i.test(source) || /^'unsafe-/i.test(source);

/** What the policy allows beyond the build's, each named; `origins`: the site and the Supabase project. */
export function cspWeaknesses(policy: string, origins: string[]) {
  const found = directives(policy);
  const weak = [...found].flatMap(([name, sources]) => {
    const wide = sources.filter((source) => loose(name, source));
    return wide.length ? [`${name} allows ${wide.join(' ')}`] : [];
  });
  // Directives that fall back to nothing when absent.
  for (const name of ['default-src', 'base-uri', 'form-action'].filter((name) => !found.has(name))) {
    weak.push(`there is no ${name}, so it allows anything`);
  }
  const ancestors = found.get('frame-ancestors')?.join(' ');
  if (ancestors?.toLowerCase() !== "'none'") weak.push(`frame-ancestors is ${ancestors || 'missing'}, not 'none'`);
  const connect = found.get('connect-src') ?? found.get('default-src') ?? [];
  const elsewhere = connect.filter(
    (source) =>
      !loose('connect-src', source) && !/^'(self|none)'$/i.test(source) && !origins.includes(source.replace(/\/$/, '')),
  );
  if (elsewhere.length) weak.push(`connect-src also allows ${elsewhere.join(' ')}`);
  return weak;
}

/** A header's comma-separated values (how fetch joins a repeated header), lower case. */
const values = (headers: Headers, name: string) =>
  (headers.get(name) ?? '').split(',').map((value) => value.trim().toLowerCase());

/** The other headers' values weaker than the build's, each named; an absent one is not judged here. */
export function headerWeaknesses(headers: Headers) {
  const shown = (name: string) => `${name.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase())} "${headers.get(name)}"`;
  const maxAge = Number(
    /(?:^|;)\s*max-age\s*=\s*"?(\d+)/i.exec(headers.get('strict-transport-security') ?? '')?.[1] ?? 0,
  );
  // As browsers read them: nosniff the first value; the last referrer policy they know; one framing value.
  const referrer = values(headers, 'referrer-policy').findLast((value) => KNOWN_REFERRERS.includes(value)) ?? '';
  const framing = new Set(values(headers, 'x-frame-options'));
  const first = (name: string) => values(headers, name)[0];
  const judged: [name: string, weak: boolean, says: string][] = [
    ['strict-transport-security', maxAge < YEAR, 'keeps HTTPS for less than a year'],
    ['x-content-type-options', first('x-content-type-options') !== 'nosniff', 'is not nosniff'],
    ['referrer-policy', !PRIVATE_REFERRERS.includes(referrer), 'is weaker than strict-origin-when-cross-origin'],
    ['x-frame-options', !['deny', 'sameorigin'].includes([...framing].join()), 'lets other sites frame the page'],
    ['cross-origin-opener-policy', first('cross-origin-opener-policy') !== 'same-origin', 'is not same-origin'],
    [
      'cross-origin-resource-policy',
      !/^same-(origin|site)$/.test(first('cross-origin-resource-policy')),
      'lets any site embed its files',
    ],
  ];
  return judged.filter(([name, weak]) => headers.has(name) && weak).map(([name, , says]) => `${shown(name)} ${says}`);
}

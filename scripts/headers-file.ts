/**
 * Reads the `_headers` file format of Netlify and Cloudflare Pages: a URL pattern on its
 * own line, then indented `Name: value` lines. `*` in a pattern matches any characters.
 */
export type HeaderRule = { pattern: RegExp; headers: [string, string][] };

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
      rules.push({ pattern: new RegExp(`^${source.join('.*')}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    rules.at(-1)?.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

export function headersFor(rules: HeaderRule[], pathname: string): [string, string][] {
  return rules.filter((rule) => rule.pattern.test(pathname)).flatMap((rule) => rule.headers);
}

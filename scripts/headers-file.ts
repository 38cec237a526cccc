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
    if (colon < 1) throw new Error(`_headers: no "Name: value" in line ${JSON.stringify(line)}`);
    rules.at(-1)?.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** As the hosts do: a header that several matching rules set gets their values joined by ", ". */
export function headersFor(rules: HeaderRule[], pathname: string): [string, string][] {
  const merged = new Map<string, [string, string]>();
  for (const rule of rules.filter((candidate) => candidate.pattern.test(pathname))) {
    for (const [name, value] of rule.headers) {
      const seen = merged.get(name.toLowerCase());
      merged.set(name.toLowerCase(), seen ? [seen[0], `${seen[1]}, ${value}`] : [name, value]);
    }
  }
  return [...merged.values()];
}

/**
 * Whether the recipients' domains take mail, each distinct domain resolved once before a send: MX, else an address
 * record (RFC 5321 §5.1: the domain itself is the mail server); a null MX (RFC 7505: MX "."), or neither record, is
 * undeliverable. A domain that does not answer in time is unknown, and sent to. Throwaway domains from mailchecker's
 * list (the version package.json pins).
 */
import { setTimeout as delay } from 'node:timers/promises';
import mailchecker from 'mailchecker';
import { lookup, type Lookup } from '../../mail/dns.ts';

export type Verdict = 'deliverable' | 'no mail server' | 'null MX' | 'throwaway' | 'unknown';
/** Left out with --skip-undeliverable. */
export const UNDELIVERABLE: Verdict[] = ['no mail server', 'null MX', 'throwaway'];

/** Each domain's lookups together within this, else unknown; this many domains at once. */
const DOMAIN_BUDGET_MS = 3_000;
const AT_ONCE = 16;

const throwaways = mailchecker.blacklist();
/** The domain or a parent domain is on the list (as mailchecker's own check walks it). */
const throwaway = (domain: string) =>
  domain.split('.').some((_, i, labels) => throwaways.has(labels.slice(i).join('.')));

async function judge(dns: Lookup, domain: string): Promise<Verdict> {
  if (throwaway(domain)) return 'throwaway';
  const mx = await dns.mx(domain);
  if (mx !== 'none' && mx.length) {
    return mx.every((exchange) => exchange === '' || exchange === '.') ? 'null MX' : 'deliverable';
  }
  const addresses = await dns.addresses(domain);
  return addresses === 'none' || !addresses.length ? 'no mail server' : 'deliverable';
}

/** Every domain's verdict, through the system's resolver or `server` (--dns-server). */
export async function judgeDomains(domains: string[], server?: string): Promise<Map<string, Verdict>> {
  const dns = lookup(server, DOMAIN_BUDGET_MS / 3);
  const verdicts = new Map<string, Verdict>();
  const todo = [...domains];
  const worker = async () => {
    for (let domain = todo.pop(); domain !== undefined; domain = todo.pop()) {
      const late = delay(DOMAIN_BUDGET_MS, 'unknown' as const, { ref: false }); // keeps no run waiting
      verdicts.set(domain, await Promise.race([judge(dns, domain).catch((): Verdict => 'unknown'), late]));
    }
  };
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
  } finally {
    dns.cancel();
  }
  return verdicts;
}

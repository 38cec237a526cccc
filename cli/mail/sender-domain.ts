/** The From domain's DNS, as receivers judge it: SPF, DMARC (aligned with From), the DKIM key, MX. */
import { getDomain } from 'tldts';
import { say } from '../terminal/terminal.ts';
import { publicKeyOf } from './dkim.ts';
import { lookup, type Lookup } from './dns.ts';

/** Each query bounded, all of them together too. */
const QUERY_TIMEOUT_MS = 2_000;
const LOOKUP_BUDGET_MS = 10_000;

type RecordName = 'SPF' | 'DMARC' | 'DKIM' | 'MX';
/** publish: the value of the record that fixes a fault, where the check knows it (SPF, its provider named). */
export type DomainCheck = { record: RecordName; ok: boolean; says: string; fix?: string; publish?: string };
export type SenderDomain = { domain: string; servers: string; checks: DomainCheck[] };
export type Signing = { selector?: string; privateKey?: string };

/** The records to publish, as the fixes name them and `waitlist domain` prints them. */
const spfRecord = (include: string, existing = 'v=spf1 ~all') =>
  existing.replace(/^v=spf1/i, `v=spf1 include:${include}`);
export const dmarcRecord = (domain: string) => `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`;
export const dkimRecord = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;
const ok = (record: RecordName, says: string): DomainCheck => ({ record, ok: true, says });
const fault = (record: RecordName, says: string, fix: string, publish?: string) =>
  ({ record, ok: false, says, fix, publish }) satisfies DomainCheck;

/** `tag=value; …` of a DMARC or DKIM record, tags lower-cased. */
function tags(record: string) {
  return new Map(
    record
      .split(';')
      .map((part) => part.trim().split('='))
      .filter(([name]) => name)
      .map(([name, ...value]) => [name.trim().toLowerCase(), value.join('=').trim()]),
  );
}

/** An SPF record authorises the provider when it includes its SPF domain (a pass, not -, ~ or ?) or redirects to it. */
const authorises = (record: string, include: string) =>
  record
    .toLowerCase()
    .split(/\s+/)
    .some((term) => /^(\+?include:|redirect=)(.+)$/.exec(term)?.[2] === include.toLowerCase());

async function spf(dns: Lookup, domain: string, include?: string): Promise<DomainCheck> {
  const found = await dns.txt(domain);
  const records = found === 'none' ? [] : found.filter((r) => /^v=spf1(\s|$)/i.test(r));
  if (!records.length) {
    const add = include
      ? `Add a TXT record at ${domain}: "${spfRecord(include)}".`
      : `Add a TXT record at ${domain} that includes your SMTP provider's SPF domain ` +
        '(`waitlist domain --spf-include` prints it).';
    return fault('SPF', `No SPF record at ${domain}.`, add, include && spfRecord(include));
  }
  if (records.length > 1) {
    return fault(
      'SPF',
      `${records.length} SPF records at ${domain}: receivers treat that as an error.`,
      'Merge them into one TXT record.',
    );
  }
  if (/\s[+]?all\b/i.test(records[0])) {
    return fault(
      'SPF',
      `The SPF record at ${domain} ends in "+all": it lets anyone send as ${domain}.`,
      'End it with ~all or -all.',
    );
  }
  if (include && !authorises(records[0], include)) {
    const merged = spfRecord(include, records[0]);
    return fault(
      'SPF',
      `The SPF record at ${domain} does not include ${include}: ${records[0]}`,
      `Replace it with "${merged}".`,
      merged,
    );
  }
  return ok('SPF', `${domain}: ${records[0]}`);
}

/** The DMARC record of the domain, or of its organisational domain (by the public suffix list) when it has none. */
async function dmarc(dns: Lookup, domain: string, signing: Signing): Promise<DomainCheck> {
  for (const at of new Set([domain, getDomain(domain) ?? domain])) {
    const found = await dns.txt(`_dmarc.${at}`);
    const record = found === 'none' ? undefined : found.find((r) => /^v=DMARC1\s*(;|$)/i.test(r));
    if (!record) continue;
    const tag = tags(record);
    if (!['none', 'quarantine', 'reject'].includes(tag.get('p')?.toLowerCase() ?? '')) {
      return fault(
        'DMARC',
        `The DMARC record at _dmarc.${at} has no valid p= policy.`,
        'Give it p=none (or quarantine, reject).',
      );
    }
    // notify's envelope sender is the From address (SPF aligned) and it signs as d=<From domain> (DKIM aligned).
    if (at !== domain && (tag.get('aspf') === 's' || tag.get('adkim') === 's')) {
      const strict =
        `_dmarc.${at}: ${record}. Strict alignment (aspf/adkim=s) applies to the organisational domain: the ` +
        `envelope sender and signature use ${domain}, which it does not match.`;
      return fault('DMARC', strict, `Add a TXT record at _dmarc.${domain}: "v=DMARC1; p=none".`);
    }
    const signed = signing.privateKey ? ` and the signature is d=${domain}` : '';
    return ok('DMARC', `_dmarc.${at}: ${record}. Aligned with From: the envelope sender is the From address${signed}.`);
  }
  const add = `Add a TXT record at _dmarc.${domain}: "${dmarcRecord(domain)}" (p=none is enough to start).`;
  return fault('DMARC', `No DMARC record at _dmarc.${domain}.`, add);
}

async function dkim(dns: Lookup, domain: string, signing: Signing): Promise<DomainCheck> {
  if (!signing.selector) {
    return fault(
      'DKIM',
      'No DKIM selector given: nothing to check.',
      'Sign with --dkim-key and --dkim-selector, or name the selector your provider signs with (--dkim-selector).',
    );
  }
  const name = `${signing.selector}._domainkey.${domain}`;
  const found = await dns.txt(name);
  const record = found === 'none' ? undefined : found.find((r) => tags(r).has('p'));
  const publicKey = signing.privateKey ? publicKeyOf(signing.privateKey) : undefined;
  const publish = publicKey ? `"${dkimRecord(publicKey)}"` : 'the record your provider gives you';
  if (!record) return fault('DKIM', `No DKIM key at ${name}.`, `Add a TXT record at ${name}: ${publish}.`);
  const published = (tags(record).get('p') ?? '').replace(/\s+/g, '');
  if (!published) return fault('DKIM', `The DKIM key at ${name} is revoked (empty p=).`, `Publish ${publish}.`);
  if (publicKey && published !== publicKey) {
    return fault(
      'DKIM',
      `The key at ${name} is not the public half of the DKIM key given.`,
      `Replace it with ${publish}.`,
    );
  }
  const which = publicKey ? 'the public half of the signing key' : 'a key is published (the provider signs)';
  return ok('DKIM', `${name}: ${which}.`);
}

async function mx(dns: Lookup, domain: string): Promise<DomainCheck> {
  const found = await dns.mx(domain);
  if (found === 'none' || !found.length) {
    return fault(
      'MX',
      `No MX record at ${domain}: replies, bounces and "unsubscribe" replies to ${domain} have nowhere to go.`,
      `Add the MX records of the mailbox that receives ${domain}'s mail.`,
    );
  }
  return ok('MX', `${domain}: ${found.join(', ')}`);
}

/** Every check; a lookup that fails or runs out of time is a fault that says so. */
export async function checkSenderDomain(domain: string, signing: Signing, dnsServer?: string, spfInclude?: string) {
  const dns = lookup(dnsServer, QUERY_TIMEOUT_MS);
  const timer = setTimeout(() => dns.cancel(), LOOKUP_BUDGET_MS);
  const guarded = async (record: RecordName, check: () => Promise<DomainCheck>) =>
    check().catch((error: Error) =>
      fault(record, `The lookup failed (${error.message}).`, 'Check the resolver (--dns-server), then run again.'),
    );
  try {
    const checks = await Promise.all([
      guarded('SPF', () => spf(dns, domain, spfInclude)),
      guarded('DKIM', () => dkim(dns, domain, signing)),
      guarded('DMARC', () => dmarc(dns, domain, signing)),
      guarded('MX', () => mx(dns, domain)),
    ]);
    return { domain, servers: dns.servers, checks } satisfies SenderDomain;
  } finally {
    clearTimeout(timer);
  }
}

export function printSenderDomain(result: SenderDomain) {
  say(`Sender domain ${result.domain} (DNS resolver ${result.servers}):`);
  for (const check of result.checks) {
    say(`  ${check.ok ? 'ok     ' : 'MISSING'} ${check.record}: ${check.says}`);
    if (check.fix) say(`          Fix: ${check.fix}`);
  }
}

/**
 * The From domain's DNS, checked before the first message: SPF, DMARC (aligned with From), the DKIM key,
 * MX; and the refusal above 5,000 recipients without all three (Gmail, Yahoo and Outlook.com's rule).
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { getDomain } from 'tldts';
import { EXIT, say, UsageError } from '../../terminal/terminal.ts';
import { publicKeyOf } from './dkim.ts';

// The DNS lookups, through the system's resolvers or --dns-server: each query bounded, all of them too.
const QUERY_TIMEOUT_MS = 2_000;
export const LOOKUP_BUDGET_MS = 10_000;

/** servers: which resolver answered, for the report ("127.0.0.1:53"). */
export type Lookup = { servers: string; txt: Query; mx: Query; addresses: Query; cancel(): void };
type Query = (name: string) => Promise<string[] | 'none'>;

/** commander's parser for --dns-server: `127.0.0.1`, `127.0.0.1:5353` or `[::1]:5353`. */
export function dnsServer(value: string): string {
  const bare = value.replace(/^\[(.*)\](?::\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
  if (!isIP(bare))
    throw new InvalidArgumentError(`not an IP address (with an optional :port): ${JSON.stringify(value)}`);
  return value;
}

/** No such name or no such record: the record is missing. Anything else: the lookup failed. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export function lookup(server: string | undefined, timeout = QUERY_TIMEOUT_MS): Lookup {
  const resolver = new Resolver({ timeout, tries: 2 });
  if (server) resolver.setServers([server]);
  const absentOr = async <T>(query: Promise<T>): Promise<T | 'none'> =>
    query.catch((error: NodeJS.ErrnoException) => {
      if (ABSENT.has(error.code ?? '')) return 'none';
      throw new Error(`${error.code ?? 'error'} from ${resolver.getServers().join(', ')}`);
    });
  return {
    servers: resolver.getServers().join(', ') || '(none configured)',
    txt: (name) => absentOr(resolver.resolveTxt(name).then((records) => records.map((parts) => parts.join('')))),
    mx: (name) => absentOr(resolver.resolveMx(name).then((records) => records.map((r) => r.exchange))),
    addresses: async (name) => {
      const v4 = await absentOr(resolver.resolve4(name));
      return v4 === 'none' ? absentOr(resolver.resolve6(name)) : v4;
    },
    cancel: () => resolver.cancel(),
  };
}

export const BULK_SENDER = 5_000;

type RecordName = 'SPF' | 'DMARC' | 'DKIM' | 'MX';
/** publish: the value of the record that fixes a fault, where the check knows it (SPF, its provider named). */
export type DomainCheck = { record: RecordName; ok: boolean; says: string; fix?: string; publish?: string };
export type SenderDomain = { domain: string; servers: string; checks: DomainCheck[] };
export type Signing = { selector?: string; privateKey?: string };

/** The records to publish, as the fixes name them and `waitlist domain` prints them. */
export const spfRecord = (include: string, existing = 'v=spf1 ~all') =>
  existing.replace(/^v=spf1/i, `v=spf1 include:${include}`);
export const dmarcRecord = (domain: string) => `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`;
export const dkimRecord = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;
const ok = (record: RecordName, says: string): DomainCheck => ({ record, ok: true, says });
const fault = (record: RecordName, says: string, fix: string, publish?: string) =>
  ({ record, ok: false, says, fix, publish }) satisfies DomainCheck;

/** `tag=value; …` of a DMARC or DKIM record, tags lower-cased. */
function tags(record: string): Map<string, string> {
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
  const add = include
    ? `Add a TXT record at ${domain}: "${spfRecord(include)}".`
    : `Add a TXT record at ${domain} that includes your SMTP provider's SPF domain (\`waitlist domain --spf-include\` prints it).`;
  if (!records.length) return fault('SPF', `No SPF record at ${domain}.`, add, include && spfRecord(include));
  const many = `${records.length} SPF records at ${domain}: receivers treat that as an error.`;
  if (records.length > 1) return fault('SPF', many, 'Merge them into one TXT record.');
  const anyone = `The SPF record at ${domain} ends in "+all": it lets anyone send as ${domain}.`;
  if (/\s[+]?all\b/i.test(records[0])) return fault('SPF', anyone, 'End it with ~all or -all.');
  if (include && !authorises(records[0], include)) {
    const merged = spfRecord(include, records[0]);
    const without = `The SPF record at ${domain} does not include ${include}: ${records[0]}`;
    return fault('SPF', without, `Replace it with "${merged}".`, merged);
  }
  return ok('SPF', `${domain}: ${records[0]}`);
}

/** The DMARC record of the domain, or of its organisational domain (by the public suffix list) when it has none. */
async function dmarc(dns: Lookup, domain: string, signing: Signing): Promise<DomainCheck> {
  const candidates = [domain, getDomain(domain) ?? domain].filter((d, i, all) => all.indexOf(d) === i);
  for (const at of candidates) {
    const found = await dns.txt(`_dmarc.${at}`);
    const record = found === 'none' ? undefined : found.find((r) => /^v=DMARC1\s*(;|$)/i.test(r));
    if (!record) continue;
    const invalid = `The DMARC record at _dmarc.${at} has no valid p= policy.`;
    const valid = ['none', 'quarantine', 'reject'].includes(tags(record).get('p')?.toLowerCase() ?? '');
    if (!valid) return fault('DMARC', invalid, 'Give it p=none (or quarantine, reject).');
    // notify's envelope sender is the From address (SPF aligned) and it signs as d=<From domain> (DKIM aligned).
    const strictSub = at !== domain && (tags(record).get('aspf') === 's' || tags(record).get('adkim') === 's');
    const aligned = strictSub
      ? ' Strict alignment (aspf/adkim=s) applies to the organisational domain: the envelope sender and signature use ' +
        `${domain}, which it does not match.`
      : ` Aligned with From: the envelope sender is the From address${signing.privateKey ? ` and the signature is d=${domain}` : ''}.`;
    const says = `_dmarc.${at}: ${record}.${aligned}`;
    return strictSub
      ? fault('DMARC', says, `Add a TXT record at _dmarc.${domain}: "v=DMARC1; p=none".`)
      : ok('DMARC', says);
  }
  const add = `Add a TXT record at _dmarc.${domain}: "${dmarcRecord(domain)}" (p=none is enough to start).`;
  return fault('DMARC', `No DMARC record at _dmarc.${domain}.`, add);
}

async function dkim(dns: Lookup, domain: string, signing: Signing): Promise<DomainCheck> {
  const how =
    'Sign with --dkim-key and --dkim-selector, or name the selector your provider signs with (--dkim-selector).';
  if (!signing.selector) return fault('DKIM', 'No DKIM selector given: nothing to check.', how);
  const name = `${signing.selector}._domainkey.${domain}`;
  const found = await dns.txt(name);
  const record = found === 'none' ? undefined : found.find((r) => tags(r).has('p'));
  const publicKey = signing.privateKey ? publicKeyOf(signing.privateKey) : undefined;
  const publish = publicKey ? `"${dkimRecord(publicKey)}"` : 'the record your provider gives you';
  if (!record) return fault('DKIM', `No DKIM key at ${name}.`, `Add a TXT record at ${name}: ${publish}.`);
  const published = (tags(record).get('p') ?? '').replace(/\s+/g, '');
  if (!published) return fault('DKIM', `The DKIM key at ${name} is revoked (empty p=).`, `Publish ${publish}.`);
  const notOurs = `The key at ${name} is not the public half of the DKIM key given.`;
  if (publicKey && published !== publicKey) return fault('DKIM', notOurs, `Replace it with ${publish}.`);
  const which = publicKey ? 'the public half of the signing key' : 'a key is published (the provider signs)';
  return ok('DKIM', `${name}: ${which}.`);
}

async function mx(dns: Lookup, domain: string): Promise<DomainCheck> {
  const found = await dns.mx(domain);
  const nowhere = `No MX record at ${domain}: replies, bounces and "unsubscribe" replies to ${domain} have nowhere to go.`;
  const add = `Add the MX records of the mailbox that receives ${domain}'s mail.`;
  if (found === 'none' || !found.length) return fault('MX', nowhere, add);
  return ok('MX', `${domain}: ${found.join(', ')}`);
}

/** Every check; a lookup that fails or runs out of time is a fault that says so. */
export async function checkSenderDomain(
  domain: string,
  signing: Signing,
  dnsServer?: string,
  spfInclude?: string,
): Promise<SenderDomain> {
  const dns = lookup(dnsServer);
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
    return { domain, servers: dns.servers, checks };
  } finally {
    clearTimeout(timer);
  }
}

/** Gmail's, Yahoo's and Outlook.com's rule for 5,000 messages a day and more. */
export const bulkReady = (result: SenderDomain) =>
  ['SPF', 'DKIM', 'DMARC'].every((record) => result.checks.find((c) => c.record === record)?.ok);

export const OVERRIDE = '--despite-sender-domain';

export type PreflightOptions = { dnsServer?: string; despiteSenderDomain?: boolean };

/** `waitlist domain`: every check reported, exit 1 when one fails. */
export async function reportSenderDomain(domain: string, signing: Signing, server?: string, spfInclude?: string) {
  const result = await checkSenderDomain(domain, signing, server, spfInclude);
  printSenderDomain(result);
  process.exitCode = result.checks.every((c) => c.ok) ? EXIT.ok : EXIT.failed;
  return result;
}

export function printSenderDomain(result: SenderDomain): void {
  say(`Sender domain ${result.domain} (DNS resolver ${result.servers}):`);
  for (const check of result.checks) {
    say(`  ${check.ok ? 'ok     ' : 'MISSING'} ${check.record}: ${check.says}`);
    if (check.fix) say(`          Fix: ${check.fix}`);
  }
}

/** Checks and reports; above BULK_SENDER recipients refuses without SPF, DKIM and DMARC (unless OVERRIDE), else warns. */
export async function preflight(domain: string, signing: Signing, options: PreflightOptions, recipients: number) {
  const result = await checkSenderDomain(domain, signing, options.dnsServer);
  printSenderDomain(result);
  if (bulkReady(result)) return result;
  const missing = result.checks.filter((c) => !c.ok && c.record !== 'MX').map((c) => c.record);
  const rule =
    `From ${BULK_SENDER.toLocaleString('en')} messages a day, Gmail, Yahoo and Outlook.com require SPF, DKIM and ` +
    `DMARC aligned with From (missing: ${missing.join(', ')}).`;
  if (recipients <= BULK_SENDER) {
    say(`Warning: ${rule} Below that, messages without them are more likely to land in spam.`);
  } else if (options.despiteSenderDomain) {
    say(`Warning: ${rule} Sending to ${recipients} anyway (${OVERRIDE}).`);
  } else {
    throw new UsageError(
      `Not sending to ${recipients} addresses: ${rule} Add the records above, send in stages with --limit, ` +
        `or send anyway with ${OVERRIDE}. Nothing was sent.`,
    );
  }
  return result;
}

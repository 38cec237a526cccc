/**
 * `waitlist domain`: the DKIM key made once (mode 0600, never overwritten), the DNS records printed
 * as they must be published (a 2048-bit key's TXT value split into strings of at most 255
 * characters; SPF with the provider's include; MX), and checked with notify's checks against a DNS
 * server on loopback (DMARC at the organisational domain by the public suffix list).
 */
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicKeyOf } from '../mail/dkim';
import { startDns, type Dns } from './dns';
import { waitlist } from './run-cli';

const DOMAIN = 'product.example';
const PROVIDER = '_spf.provider.example';
const folder = mkdtempSync(join(tmpdir(), 'domain-'));
const keyFile = join(folder, 'dkim.pem');
let dns: Dns;
beforeAll(async () => {
  dns = await startDns();
});
afterAll(() => dns.close());

const domain = (args: string[] = [], at = DOMAIN) =>
  waitlist(['domain', at, '--dkim-key', keyFile, '--spf-include', PROVIDER, '--dns-server', dns.server, ...args]);

/** The quoted strings of the DKIM record as printed. */
const quoted = (stdout: string) => {
  const line = stdout.split('\n').find((l) => l.includes('As strings of at most 255 characters: '))!;
  return [...line.matchAll(/"([^"]*)"/g)].map((match) => match[1]);
};

describe('waitlist domain', () => {
  it('first run: makes an RSA 2048 key only its owner reads, prints four records, all missing (exit 1)', async () => {
    const run = await domain();
    expect(run.code, run.stderr).toBe(1);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const pem = readFileSync(keyFile, 'utf8');
    expect(createPrivateKey(pem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(run.stderr).toContain(`Wrote a new DKIM key (RSA 2048) to ${keyFile}, readable by you only: notify signs`);
    expect(run.stderr).toContain(`MISSING DKIM: No DKIM key at launch._domainkey.${DOMAIN}.`);
    expect(run.stdout + run.stderr).not.toContain('PRIVATE KEY');

    const record = `v=DKIM1; k=rsa; p=${publicKeyOf(pem)}`;
    expect(run.stdout).toContain(`DKIM  launch._domainkey.${DOMAIN}  TXT\n  ${record}\n`);
    const strings = quoted(run.stdout);
    expect(strings.length).toBe(2);
    for (const s of strings) expect(s.length).toBeLessThanOrEqual(255);
    expect(strings.join('')).toBe(record);
    expect(run.stdout).toContain(`SPF  ${DOMAIN}  TXT\n  v=spf1 include:${PROVIDER} ~all\n`);
    expect(run.stderr).toContain(`Fix: Add a TXT record at ${DOMAIN}: "v=spf1 include:${PROVIDER} ~all".`);
    expect(run.stdout).toContain(`DMARC  _dmarc.${DOMAIN}  TXT\n  v=DMARC1; p=none; rua=mailto:dmarc@${DOMAIN}\n`);
    expect(run.stderr).toContain(`MISSING MX: No MX record at ${DOMAIN}`);
    expect(run.stdout).toContain(`MX  ${DOMAIN}  MX\n  the mail servers your mail host names\n`);
    expect(run.stdout + run.stderr).not.toMatch(/<[^>]*>/); // no placeholder to fill in
  });

  it('once published: checks only, with the same key (exit 0); names a record that is missing (exit 1)', async () => {
    const pem = readFileSync(keyFile, 'utf8');
    dns.zone.set(DOMAIN, { txt: [`v=spf1 include:${PROVIDER} ~all`], mx: ['mx1.provider.example'] });
    dns.zone.set(`_dmarc.${DOMAIN}`, { txt: [`v=DMARC1; p=none`] });
    // Published as split: the stand-in serves it as strings of 255 characters, as a DNS host does.
    dns.zone.set(`launch._domainkey.${DOMAIN}`, { txt: [quoted((await domain()).stdout).join('')] });
    const ready = await domain();
    expect(ready.code, ready.stderr).toBe(0);
    expect(ready.stdout).toBe('');
    expect(ready.stderr).toContain(
      `Using ${keyFile}: notify signs with it (--dkim-key ${keyFile} --dkim-selector launch)`,
    );
    expect(ready.stderr).toContain(`ok      DKIM: launch._domainkey.${DOMAIN}: the public half of the signing key.`);
    expect(readFileSync(keyFile, 'utf8')).toBe(pem);

    dns.zone.delete(`_dmarc.${DOMAIN}`);
    dns.zone.set(DOMAIN, { mx: ['mx1.provider.example'] });
    const missing = await domain();
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`MISSING DMARC: No DMARC record at _dmarc.${DOMAIN}.`);
    expect(missing.stdout).toContain(`DMARC  _dmarc.${DOMAIN}  TXT`);
    expect(missing.stderr).toContain(`MISSING SPF: No SPF record at ${DOMAIN}.`);
    expect(missing.stdout).toContain(`SPF  ${DOMAIN}  TXT\n  v=spf1 include:${PROVIDER} ~all\n`);
    expect(missing.stdout).not.toContain('DKIM  ');
    expect(missing.stdout).not.toContain('MX  ');
  });

  it('shows a control character a DNS answer carries as \uFFFD, never as a terminal escape', async () => {
    dns.zone.set(DOMAIN, { txt: ['v=spf1 include:_spf.other-host.example ~all \u001b]0;owned\u0007'] });
    const run = await domain();
    expect(run.stderr).toContain('~all \uFFFD]0;owned\uFFFD');
    expect(run.stdout + run.stderr).not.toContain('\u001b');
  });

  it("flags an SPF record that does not include the provider's, and prints it with the include added", async () => {
    dns.zone.set(DOMAIN, { txt: ['v=spf1 include:_spf.other-host.example mx ~all'], mx: ['mx1.provider.example'] });
    const run = await domain();
    expect(run.code).toBe(1);
    const fixed = `v=spf1 include:${PROVIDER} include:_spf.other-host.example mx ~all`;
    expect(run.stderr).toContain(
      `MISSING SPF: The SPF record at ${DOMAIN} does not include ${PROVIDER}: ` +
        'v=spf1 include:_spf.other-host.example mx ~all',
    );
    expect(run.stderr).toContain(`Fix: Replace it with "${fixed}".`);
    expect(run.stdout).toContain(`SPF  ${DOMAIN}  TXT\n  ${fixed}\n`);
    dns.zone.set(DOMAIN, { txt: [fixed], mx: ['mx1.provider.example'] });
    expect((await domain()).stderr).toContain(`ok      SPF: ${DOMAIN}: ${fixed}`);
  });

  it('looks up DMARC at the organisational domain of a .co.uk sender (example.co.uk, not co.uk)', async () => {
    const sender = 'news.example.co.uk';
    dns.zone.set(sender, { txt: [`v=spf1 include:${PROVIDER} ~all`], mx: ['mx1.provider.example'] });
    dns.zone.set('_dmarc.example.co.uk', { txt: ['v=DMARC1; p=none'] });
    dns.asked.length = 0;
    const run = await domain([], sender);
    expect(run.stderr).toContain('ok      DMARC: _dmarc.example.co.uk: v=DMARC1; p=none.');
    expect(dns.asked).toEqual(expect.arrayContaining(['TXT _dmarc.news.example.co.uk', 'TXT _dmarc.example.co.uk']));
    expect(dns.asked).not.toContain('TXT _dmarc.co.uk');
  });

  it('never overwrites a file that is not a DKIM key, and refuses what is not a domain (exit 2)', async () => {
    const other = join(folder, 'notes.txt');
    writeFileSync(other, 'my notes\n');
    const run = await domain(['--dkim-key', other]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The DKIM key (--dkim-key) is not an RSA private key in PEM.');
    expect(readFileSync(other, 'utf8')).toBe('my notes\n');
    const nowhere = await domain(['--dkim-key', join(folder, 'no', 'such', 'dir.pem')]);
    expect(nowhere).toMatchObject({ code: 2, stderr: expect.stringContaining('Cannot write the DKIM key to') });
    const notDomain = await domain([], 'hello@product.example');
    expect(notDomain).toMatchObject({ code: 2, stderr: expect.stringContaining('Not a domain name') });
  });
});

/**
 * The sender-domain check against a DNS server on loopback (no query leaves the machine): each
 * missing or wrong record gives its message; above 5,000 recipients the run refuses to start.
 */
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publicKeyOf } from '../mail/dkim';
import { checkSenderDomain, type SenderDomain, type Signing } from '../mail/sender-domain';
import { startDns, type Dns } from './dns';
import { dkimKeyFile, letterArgs, newDkimKey } from './notify-letter';
import { asSuperuser, countRows, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { startInbox, type Inbox } from './smtp';

const DOMAIN = 'product.example';
const SELECTOR = 'launch2026';
const signingKey = newDkimKey();
const otherKey = newDkimKey();
const keyFile = dkimKeyFile(signingKey);

/** Every record in place: SPF, DKIM of the signing key, DMARC p=none, MX. */
function completeZone(dns: Dns) {
  dns.zone.clear();
  dns.zone.set(DOMAIN, {
    txt: ['v=spf1 include:_spf.provider.example ~all', 'site-verification=abc'],
    mx: ['mx1.provider.example'],
  });
  dns.zone.set(`_dmarc.${DOMAIN}`, { txt: ['v=DMARC1; p=none; rua=mailto:dmarc@product.example'] });
  dns.zone.set(`${SELECTOR}._domainkey.${DOMAIN}`, { txt: [`v=DKIM1; k=rsa; p=${publicKeyOf(signingKey)}`] });
}

const db = useOwnDatabase('cli_sender_domain');
let dns: Dns;
let inbox: Inbox;
beforeAll(async () => {
  dns = await startDns();
  inbox = await startInbox();
});
afterAll(async () => {
  await dns.close();
  await inbox.close();
});
beforeEach(() => completeZone(dns));

const check = (signing: Signing = { selector: SELECTOR, privateKey: signingKey }) =>
  checkSenderDomain(DOMAIN, signing, dns.server);
const byRecord = (result: SenderDomain) => Object.fromEntries(result.checks.map((c) => [c.record, c]));

describe('the sender-domain check', () => {
  it('finds every record in place and names the resolver it asked', async () => {
    const result = await check();
    expect(result.servers).toBe(dns.server);
    expect(result.checks.map((c) => [c.record, c.ok])).toEqual([
      ['SPF', true],
      ['DKIM', true],
      ['DMARC', true],
      ['MX', true],
    ]);
    expect(byRecord(result).DMARC.says).toContain(
      'Aligned with From: the envelope sender is the From address and the signature is d=product.example',
    );
    expect(dns.asked).toContain('TXT _dmarc.product.example');
  });

  it('says which record to add for each one missing', async () => {
    dns.zone.clear();
    dns.zone.set(DOMAIN, { txt: ['site-verification=abc'] });
    const checks = byRecord(await check());
    expect(checks.SPF).toMatchObject({ ok: false, says: 'No SPF record at product.example.' });
    expect(checks.SPF.fix).toBe(
      "Add a TXT record at product.example that includes your SMTP provider's SPF domain " +
        '(`waitlist domain --spf-include` prints it).',
    );
    expect(checks.DMARC.fix).toBe(
      'Add a TXT record at _dmarc.product.example: "v=DMARC1; p=none; rua=mailto:dmarc@product.example" ' +
        '(p=none is enough to start).',
    );
    expect(checks.DKIM.fix).toBe(
      `Add a TXT record at ${SELECTOR}._domainkey.product.example: "v=DKIM1; k=rsa; p=${publicKeyOf(signingKey)}".`,
    );
    expect(checks.MX).toMatchObject({ ok: false, says: expect.stringContaining('No MX record at product.example') });
  });

  it('finds a DKIM key that is not the signing key, two SPF records, +all, and DMARC without a policy', async () => {
    dns.zone.set(`${SELECTOR}._domainkey.${DOMAIN}`, { txt: [`v=DKIM1; k=rsa; p=${publicKeyOf(otherKey)}`] });
    dns.zone.set(`_dmarc.${DOMAIN}`, { txt: ['v=DMARC1; rua=mailto:dmarc@product.example'] });
    dns.zone.set(DOMAIN, { txt: ['v=spf1 a ~all', 'v=spf1 mx -all'], mx: ['mx1.provider.example'] });
    let checks = byRecord(await check());
    expect(checks.DKIM.says).toBe(
      `The key at ${SELECTOR}._domainkey.product.example is not the public half of the DKIM key given.`,
    );
    expect(checks.SPF.says).toContain('2 SPF records at product.example');
    expect(checks.DMARC.says).toContain('has no valid p= policy');
    dns.zone.set(DOMAIN, { txt: ['v=spf1 +all'] });
    checks = byRecord(await check());
    expect(checks.SPF.says).toContain('it lets anyone send as product.example');
  });

  it('no DKIM selector: DKIM not checked; a selector alone: checks that the provider publishes a key', async () => {
    expect(byRecord(await check({} as never)).DKIM).toMatchObject({
      ok: false,
      says: 'No DKIM selector given: nothing to check.',
    });
    expect(byRecord(await check({ selector: SELECTOR })).DKIM).toMatchObject({
      ok: true,
      says: `${SELECTOR}._domainkey.product.example: a key is published (the provider signs).`,
    });
  });

  it("takes the organisational domain's DMARC record for a subdomain, unless its alignment is strict", async () => {
    const sub = 'news.product.example';
    dns.zone.set(sub, { txt: ['v=spf1 include:_spf.provider.example ~all'], mx: ['mx1.provider.example'] });
    expect(byRecord(await checkSenderDomain(sub, {}, dns.server)).DMARC).toMatchObject({ ok: true });
    dns.zone.set(`_dmarc.${DOMAIN}`, { txt: ['v=DMARC1; p=reject; adkim=s; aspf=s'] });
    const strict = byRecord(await checkSenderDomain(sub, {}, dns.server)).DMARC;
    expect(strict).toMatchObject({
      ok: false,
      fix: 'Add a TXT record at _dmarc.news.product.example: "v=DMARC1; p=none".',
    });
  });

  it('bounds its lookups: a resolver that never answers is a failed lookup within seconds, named', async () => {
    const silent = createSocket('udp4'); // reads every query, answers none
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const server = `127.0.0.1:${silent.address().port}`;
    const started = Date.now();
    const result = await checkSenderDomain(DOMAIN, {}, server);
    silent.close();
    expect(Date.now() - started).toBeLessThan(11_000);
    expect(byRecord(result).SPF.says).toBe(`The lookup failed (ETIMEOUT from ${server}).`);
  }, 20_000);
});

describe('notify and the sender domain', () => {
  beforeAll(async () => {
    // 5,001 signups, keyed and sealed as a live list's are (the triggers run), in one statement.
    await asSuperuser(
      db,
      `insert into public.waiting_list (email) select 'reader' || i || '@example.com' from generate_series(1, 5001) i`,
    );
  }, 120_000);

  it('refuses over 5,000 recipients without DMARC, sending nothing; the override goes on to send', async () => {
    dns.zone.delete(`_dmarc.${DOMAIN}`);
    const args = [...letterArgs('bulk', { dns: dns.server }), '--dkim-key', keyFile, '--dkim-selector', SELECTOR];
    const mailable = await countRows(db.owner, 'private.mailable_signups');
    const refused = await waitlist(args, { SMTP_URL: inbox.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Sender domain product.example (DNS resolver ${dns.server}):`);
    expect(refused.stderr).toContain('MISSING DMARC: No DMARC record at _dmarc.product.example.');
    expect(refused.stderr).toContain(
      `Not sending to ${mailable} addresses: From 5,000 messages a day, Gmail, Yahoo and Outlook.com require ` +
        'SPF, DKIM and DMARC aligned with From (missing: DMARC).',
    );
    expect(refused.stderr).toContain('--despite-sender-domain');
    expect(inbox.accepted).toHaveLength(0);
    expect(refused.stderr).not.toContain('PRIVATE KEY');
    // The override goes on to send; here the server refuses every address, and ten in a row stop the run.
    inbox.answerRcpt = () => ({ code: 550, message: 'No such user' });
    const overridden = await waitlist([...args, '--despite-sender-domain'], { SMTP_URL: inbox.url });
    inbox.answerRcpt = () => undefined;
    expect(overridden.code, overridden.stderr).toBe(1);
    expect(overridden.stderr).toContain(`Sending to ${mailable} anyway (--despite-sender-domain).`);
    expect(overridden.stderr).toContain('The SMTP server refused 10 addresses in a row; stopped: ');
  });

  it('warns below the threshold (--limit) and sends', async () => {
    dns.zone.delete(`_dmarc.${DOMAIN}`);
    const args = [...letterArgs('staged', { dns: dns.server }), '--dkim-key', keyFile, '--dkim-selector', SELECTOR];
    const run = await waitlist([...args, '--limit', '3'], { SMTP_URL: inbox.url });
    expect(run.code, run.stderr).toBe(3); // left to send
    expect(run.stderr).toContain('Warning: From 5,000 messages a day');
    expect(inbox.accepted).toHaveLength(3);
  });

  it('takes the DKIM key from DKIM_PRIVATE_KEY too, checks it against DNS first, never prints it', async () => {
    const args = [...letterArgs('env-key', { dns: dns.server }), '--dkim-selector', SELECTOR, '--limit', '1'];
    const good = await waitlist(args, { DKIM_PRIVATE_KEY: signingKey, SMTP_URL: inbox.url });
    expect(good.code, good.stderr).toBe(3); // left to send: --limit
    expect(good.stderr).toContain(
      `ok      DKIM: ${SELECTOR}._domainkey.product.example: the public half of the signing key.`,
    );
    const other = await waitlist(args, { DKIM_PRIVATE_KEY: otherKey, SMTP_URL: inbox.url });
    expect(other.stderr).toContain(`Replace it with "v=DKIM1; k=rsa; p=${publicKeyOf(otherKey)}".`);
    const broken = signingKey.slice(0, 300); // cut short: no key at all
    const unusable = await waitlist(args, { DKIM_PRIVATE_KEY: broken, SMTP_URL: inbox.url });
    expect(unusable.code).toBe(2);
    expect(unusable.stderr).toContain('The DKIM key (DKIM_PRIVATE_KEY) is not an RSA private key in PEM.');
    for (const run of [good, other, unusable]) {
      expect(run.stdout + run.stderr).not.toContain('PRIVATE KEY');
      expect(run.stdout + run.stderr).not.toContain(signingKey.split('\n')[1]);
    }
    const selectorless = await waitlist(letterArgs('no-selector', { dns: dns.server }), {
      DKIM_PRIVATE_KEY: signingKey,
      SMTP_URL: inbox.url,
    });
    expect(selectorless).toMatchObject({ code: 2, stderr: expect.stringContaining('A DKIM key needs its selector') });
  });
});

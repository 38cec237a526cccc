/**
 * Junk named before a send: the domains of the addresses left to send, judged once each (recipient-domains.ts), counted
 * by reason with the top domains, never an address. With --skip-undeliverable those without a mail server and the
 * throwaway ones are left out of this campaign (skipped in the journal, with the reason; not on the do-not-email list).
 */
import type { Queryable } from '../../connect/queries.ts';
import { addressOf, type Opener, type StoredAddress } from '../../seal/open.ts';
import { say } from '../../terminal/terminal.ts';
import { domainOf } from './letter.ts';
import { judgeDomains, UNDELIVERABLE, type Verdict } from './recipient-domains.ts';

/** The addresses left to send, grouped by domain (lower-cased): their journal hashes. */
async function pendingByDomain(db: Queryable, campaign: string, opener: Opener | null) {
  const { rows } = await db.query<StoredAddress & { hash: Buffer }>(
    `select j.address_hash as hash, w.id, w.email, a.hour_key_id::text, a.seal from private.notify_journal j
     join public.waiting_list w on w.id = j.signup_id left join private.signup_addresses a on a.id = w.id
     where j.campaign = $1 and j.state = 'pending'`,
    [campaign],
  );
  const byDomain = new Map<string, Buffer[]>();
  for (const row of rows) {
    const address = await addressOf(db, row, opener);
    const domain = domainOf(address).toLowerCase();
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), row.hash]);
  }
  return byDomain;
}

type JunkOptions = { campaign: string; dnsServer?: string; skipUndeliverable?: boolean };

/** Prints the counts by reason; with --skip-undeliverable, leaves the undeliverable out of the campaign. */
export async function nameJunk(db: Queryable, options: JunkOptions, opener: Opener | null) {
  const byDomain = await pendingByDomain(db, options.campaign, opener);
  const verdicts = await judgeDomains([...byDomain.keys()], options.dnsServer);
  // Per verdict: how many addresses, and each domain with its count.
  const counts = new Map<Verdict, { addresses: number; domains: [string, number][] }>();
  for (const [domain, verdict] of verdicts) {
    const entry = counts.get(verdict) ?? { addresses: 0, domains: [] };
    const addresses = byDomain.get(domain)!.length;
    counts.set(verdict, { addresses: entry.addresses + addresses, domains: [...entry.domains, [domain, addresses]] });
  }
  say(`Recipient domains: ${verdicts.size} distinct, resolved once each.`);
  for (const verdict of ['deliverable', ...UNDELIVERABLE, 'unknown'] as Verdict[]) {
    const { addresses = 0, domains = [] } = counts.get(verdict) ?? {};
    const top = domains.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
    const list = top.map(([domain, count]) => `${domain} ${count}`).join(', ');
    const named = verdict === 'deliverable' || !addresses ? '' : `: ${list}`;
    const sent = verdict === 'unknown' && addresses ? ' (no answer now: sent)' : '';
    say(`  ${verdict}: ${addresses} addresses${named}${sent}`);
  }
  const junk = UNDELIVERABLE.flatMap((verdict) =>
    (counts.get(verdict)?.domains ?? []).map(([domain]) => ({ verdict, hashes: byDomain.get(domain)! })),
  );
  const undeliverable = junk.reduce((sum, { hashes }) => sum + hashes.length, 0);
  if (!undeliverable) return;
  if (!options.skipUndeliverable) {
    say(
      `${undeliverable} of them cannot receive mail or are throwaway: ` +
        '--skip-undeliverable leaves them out of this campaign.',
    );
    return;
  }
  for (const { verdict, hashes } of junk) {
    await db.query(
      `update private.notify_journal set state = 'skipped', detail = $3, changed_at = now()
       where campaign = $1 and state = 'pending' and address_hash = any ($2)`,
      [options.campaign, hashes, verdict === 'throwaway' ? 'throwaway domain' : verdict],
    );
  }
  say(
    `Left out of campaign "${options.campaign}": ${undeliverable} ` +
      '(skipped in its journal, not on the do-not-email list).',
  );
}

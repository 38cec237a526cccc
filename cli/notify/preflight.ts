/** The sender-domain check's report, and the refusal above 5,000 recipients without SPF, DKIM and DMARC. */
import { say, UsageError } from '../terminal.ts';
import { BULK_SENDER, bulkReady, checkSenderDomain, type SenderDomain, type Signing } from './sender-domain.ts';

export const OVERRIDE = '--despite-sender-domain';

export type PreflightOptions = { dnsServer?: string; despiteSenderDomain?: boolean };

export function printSenderDomain(result: SenderDomain): void {
  say(`Sender domain ${result.domain} (DNS resolver ${result.servers}):`);
  for (const check of result.checks) {
    say(`  ${check.ok ? 'ok     ' : 'MISSING'} ${check.record}: ${check.says}`);
    if (check.fix) say(`          Fix: ${check.fix}`);
  }
}

/**
 * Checks and reports; refuses a run of more than BULK_SENDER recipients unless SPF, DKIM and DMARC
 * are all in place (or OVERRIDE is given); below that, a fault is a warning.
 */
export async function preflight(
  domain: string,
  signing: Signing,
  options: PreflightOptions,
  recipients: number,
): Promise<SenderDomain> {
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

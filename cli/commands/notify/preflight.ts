/**
 * notify's check of the From domain before the first message, and Gmail, Yahoo and Outlook.com's rule for bulk senders.
 */
import { say, UsageError } from '../../terminal/terminal.ts';
import { checkSenderDomain, printSenderDomain, type Signing } from '../../mail/sender-domain.ts';

export const BULK_SENDER = 5_000;
export const OVERRIDE = '--despite-sender-domain';

export type PreflightOptions = { dnsServer?: string; despiteSenderDomain?: boolean };

/**
 * Checks and reports; above BULK_SENDER recipients refuses without SPF, DKIM and DMARC (unless OVERRIDE), else warns.
 */
export async function preflight(domain: string, signing: Signing, options: PreflightOptions, recipients: number) {
  const result = await checkSenderDomain(domain, signing, options.dnsServer);
  printSenderDomain(result);
  const missing = result.checks.filter((c) => !c.ok && c.record !== 'MX').map((c) => c.record);
  if (!missing.length) return;
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
}

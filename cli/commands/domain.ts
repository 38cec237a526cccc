/**
 * The sending domain in one command: the DKIM key made once (new file, 0600), the missing DKIM, SPF, DMARC and MX
 * records printed, then checked as notify checks them (../mail/sender-domain.ts).
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { dkimSigning, publicKeyOf } from '../mail/dkim.ts';
import { dnsServer } from '../mail/dns.ts';
import {
  checkSenderDomain,
  dkimRecord,
  dmarcRecord,
  printSenderDomain,
  type DomainCheck,
} from '../mail/sender-domain.ts';
import { EXIT, out, say, UsageError, writeNewFile } from '../terminal/terminal.ts';

type Options = { dkimKey: string; dkimSelector: string; spfInclude: string; dnsServer?: string };

/**
 * A TXT value as a zone file writes it: quoted strings of at most 255 characters, which receivers join (RFC 7208,
 * 6376).
 */
const txtStrings = (value: string) => (value.match(/.{1,255}/g) ?? []).map((part) => `"${part}"`).join(' ');

/**
 * The records found missing or wrong, as they are to be published; an SPF record the check cannot write has its Fix
 * line.
 */
function printRecords(domain: string, publicKey: string, selector: string, faults: DomainCheck[]) {
  const dkim = dkimRecord(publicKey);
  const records: Record<DomainCheck['record'], [string, string | undefined, string]> = {
    DKIM: [`${selector}._domainkey.${domain}  TXT`, dkim, `As strings of at most 255 characters: ${txtStrings(dkim)}`],
    SPF: [`${domain}  TXT`, faults.find((c) => c.record === 'SPF')?.publish, 'One SPF record: it replaces any other.'],
    DMARC: [`_dmarc.${domain}  TXT`, dmarcRecord(domain), 'rua=: a mailbox you read, or none. p=none only watches.'],
    MX: [`${domain}  MX`, 'the mail servers your mail host names', `Replies and bounces to ${domain} go there.`],
  };
  const blocks = faults.flatMap(({ record }) => {
    const [name, value, note] = records[record];
    return value ? [`\n${record}  ${name}\n  ${value}\n  ${note}`] : [];
  });
  if (blocks.length) out(`Add these records to ${domain}'s DNS, then run this command again to check them:`);
  for (const block of blocks) out(block);
}

export function domainCommand(): Command {
  return new Command('domain')
    .description('Make a DKIM key (first run), print the DKIM, SPF, DMARC and MX records to add, and check them.')
    .argument('<domain>', "the From address's domain, e.g. example.com")
    .option('--dkim-key <file>', 'the DKIM private key, made in a new file (readable by you only) if none', 'dkim.pem')
    .option('--dkim-selector <name>', "the DKIM key's selector: its record is <selector>._domainkey.<domain>", 'launch')
    .requiredOption('--spf-include <domain>', "your SMTP provider's SPF domain, as its docs name it (required)")
    .option('--dns-server <ip[:port]>', "resolve the domain with this server (default: the system's)", dnsServer)
    .action(async (domain: string, options: Options) => {
      if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i.test(domain)) {
        throw new UsageError(`Not a domain name: ${JSON.stringify(domain)} (the part of the From address after @).`);
      }
      const file = options.dkimKey;
      const made = !existsSync(file);
      if (made) {
        const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' });
        await writeNewFile(file, String(pem), 'the DKIM key');
      }
      const { privateKey } = dkimSigning(domain, options.dkimSelector, file) ?? {};
      if (!privateKey) throw new UsageError(`${file} is empty: name a new file for the DKIM key.`);
      const key = made ? `Wrote a new DKIM key (RSA 2048) to ${file}, readable by you only` : `Using ${file}`;
      say(
        `${key}: notify signs with it (--dkim-key ${file} --dkim-selector ${options.dkimSelector}); ` +
          `whoever holds it can sign as ${domain}.\n`,
      );
      const signing = { selector: options.dkimSelector, privateKey };
      const result = await checkSenderDomain(domain, signing, options.dnsServer, options.spfInclude);
      printSenderDomain(result);
      process.exitCode = result.checks.every((c) => c.ok) ? EXIT.ok : EXIT.failed;
      // A record whose lookup failed may exist: only those found missing or wrong are printed.
      const faults = result.checks.filter((c) => !c.ok && !/^The lookup failed/.test(c.says));
      printRecords(domain, publicKeyOf(privateKey), options.dkimSelector, faults);
    });
}

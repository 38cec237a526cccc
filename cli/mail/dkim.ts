/** DKIM signing with nodemailer's signer, the key from --dkim-key or DKIM_PRIVATE_KEY (never printed). */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readText, UsageError } from '../terminal/terminal.ts';

/** The headers a receiver judges the message by, the one-click pair among them (RFC 8058). */
const SIGNED_HEADERS =
  'From:To:Reply-To:Subject:Date:Message-ID:MIME-Version:Content-Type:List-Unsubscribe:List-Unsubscribe-Post';

export type Dkim = { domainName: string; keySelector: string; privateKey: string; headerFieldNames: string };

/** The key's public half as published in DNS: base64 DER SubjectPublicKeyInfo (the p= tag). */
export const publicKeyOf = (privateKey: string) =>
  createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');

/** The signing settings, or none when no key is given (the provider may sign). */
export function dkimSigning(domain: string, selector: string | undefined, file: string | undefined): Dkim | undefined {
  const privateKey = file ? readText(file, '--dkim-key') : process.env.DKIM_PRIVATE_KEY || undefined;
  if (!privateKey) return undefined;
  if (!selector) throw new UsageError('A DKIM key needs its selector: add --dkim-selector <name>.');
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    // Never the key itself, nor the parser's message (it may quote it).
    throw new UsageError(
      `The DKIM key (${file ? '--dkim-key' : 'DKIM_PRIVATE_KEY'}) is not an RSA private key in PEM.`,
    );
  }
  return { domainName: domain, keySelector: selector, privateKey, headerFieldNames: SIGNED_HEADERS };
}

/**
 * A refusal is the recipient's only when the server says so (RFC 3463's enhanced codes, RFC 7505's
 * null MX): those put the address on the do-not-email list; any other permanent reply leaves it to
 * send, and the owner is told whose problem it is.
 */
import { describe, expect, it } from 'vitest';
import { cause, detail, refusal } from '../mail/refusal';

/** A RCPT TO refusal as nodemailer reports it. */
const refused = (response: string, command = 'RCPT TO') => ({
  code: 'EENVELOPE',
  responseCode: Number(response.slice(0, 3)),
  response,
  command,
});

describe('refusal', () => {
  it.each([
    '550 5.1.1 The email account that you tried to reach does not exist',
    '550 5.1.2 Host unknown',
    '553 5.1.3 Bad recipient address syntax',
    '550 5.1.6 Mailbox has moved, no forwarding address',
    '556 5.1.10 Recipient address has null MX',
    '550 5.2.1 The email account that you tried to reach is disabled',
    '501 Bad recipient address syntax',
  ])('%s: the mailbox is gone (bounced)', (response) => {
    expect(refusal(refused(response))).toBe('bounced');
  });

  it.each([
    '550 5.7.26 Unauthenticated email from product.example is not accepted due to domain DMARC policy',
    '550 5.7.1 Relaying denied',
    '550 5.1.4 Ambiguous destination mailbox address',
    '554 5.7.0 Message rejected as spam',
    '552 5.3.4 Message too big',
    '554 5.6.0 Malformed content',
    '554 5.4.4 Unable to route',
    '500 5.5.2 Syntax error',
    '552 5.2.2 Mailbox full',
    '550 No such user here',
    '554 Daily sending quota exceeded',
  ])('%s: not the recipient’s (refused, left to send)', (response) => {
    expect(refusal(refused(response))).toBe('refused');
  });

  it('a mailbox code for the sender (MAIL FROM) is the sender’s, 4xx is temporary', () => {
    expect(refusal(refused('550 5.1.1 Sender unknown', 'MAIL FROM'))).toBe('refused');
    expect(refusal(refused('451 4.7.1 Try again later'))).toBe('temporary');
    // A bare 501 is the address only at RCPT TO: at DATA it is the message's syntax.
    expect(refusal(refused('501 Syntax error in line', 'DATA'))).toBe('refused');
    expect(detail(refused('501 Bad recipient address syntax'))).toBe('501 RCPT TO');
  });

  it('names the cause without the address, and keeps only the codes', () => {
    const dmarc = refused('550 5.7.26 Unauthenticated email from ada@example.com is not accepted');
    expect(cause(dmarc)).toBe(
      'the provider refuses the sender: 550 5.7.26 Unauthenticated email from <address> is not accepted; ' +
        'fix SPF/DKIM/DMARC with `waitlist domain`, or ask the provider why',
    );
    expect(detail(dmarc)).toBe('550 5.7.26');
    expect(detail(refused('550 No such user'))).toBe('550');
  });
});

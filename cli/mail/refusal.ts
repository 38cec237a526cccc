/**
 * What an SMTP server's answer means for one address. `bounced`: refused for good, its enhanced status
 * code (RFC 3463) saying the mailbox or its domain takes no mail (on the do-not-email list). `refused`: any
 * other permanent refusal (the sender, the message, policy, routing, a full mailbox, no enhanced code: left
 * to send). `temporary`: 4xx or no connection (tried again). `uncertain`: lost mid-message. `fatal`: the
 * server cannot be used.
 */
type Refusal = 'temporary' | 'bounced' | 'refused' | 'uncertain' | 'fatal';
type SmtpError = Partial<Record<'code' | 'originalCode' | 'timeoutType' | 'response' | 'command', string>> & {
  responseCode?: number;
};

/**
 * X.1.1 bad mailbox, X.1.2 bad domain, X.1.3 bad address syntax, X.1.6 moved, X.2.1 disabled (RFC 3463); X.1.10
 * null MX (RFC 7505). Not X.1.4 (ambiguous: still someone's, maybe); X.1.7 and X.1.8 are the sender's.
 */
const MAILBOX = new Set(['1.1', '1.2', '1.3', '1.6', '1.10', '2.1']);

/** nodemailer's codes for a server that cannot be used: the login, TLS, the server's own name. */
const UNUSABLE = ['EAUTH', 'ETLS', 'EDNS', 'EREQUIRETLS'];
/** The connection failed before any message could reach the server: trying again sends nothing twice. */
const NOT_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'];
const BEFORE_ANY_MESSAGE = ['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT'];
/** Lost with the message under way: the server may hold it. */
const MID_MESSAGE = ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EPROTOCOL'];

/** "550 5.7.26" from a reply or a journal detail; the enhanced part undefined when absent. */
function codes(text: string): { reply: number; enhanced?: string } | undefined {
  const found = /^(\d{3})(?:[ -]([245]\.\d{1,3}\.\d{1,3})\b)?/.exec(text);
  return found ? { reply: Number(found[1]), enhanced: found[2] } : undefined;
}

/** A bare 501 to RCPT TO, as the journal keeps it: the command kept, since 501 means little alone. */
const BAD_ADDRESS = '501 RCPT TO';

/** Whether a permanent reply (or a journal detail "550 5.1.1") says the recipient's mailbox is gone. */
export function aboutTheMailbox(text: string) {
  if (text === BAD_ADDRESS) return true;
  const found = codes(text);
  return !!found?.enhanced && found.reply >= 500 && MAILBOX.has(found.enhanced.slice(2));
}

/** A bare 501 to RCPT TO is a syntax error in its one argument, the address: X.1.3's meaning (not at DATA). */
const badAddress = (text: string, command?: string) =>
  command === 'RCPT TO' && codes(text)?.reply === 501 && !codes(text)?.enhanced;

export function refusal(error: unknown): Refusal {
  const {
    code = '',
    originalCode = '',
    responseCode = 0,
    timeoutType = '',
    response = '',
    command,
  } = (error ?? {}) as SmtpError;
  if (UNUSABLE.includes(code)) return 'fatal';
  if (responseCode >= 500) {
    return badAddress(response, command) || (command !== 'MAIL FROM' && aboutTheMailbox(response))
      ? 'bounced'
      : 'refused';
  }
  if (responseCode >= 400) return 'temporary';
  if (NOT_CONNECTED.includes(originalCode) || BEFORE_ANY_MESSAGE.includes(timeoutType)) return 'temporary';
  return MID_MESSAGE.includes(code) ? 'uncertain' : 'fatal';
}

/** The owner's words for a permanent refusal that is not the recipient's, by the enhanced code's subject. */
export function cause(error: unknown) {
  const said = reply(error);
  const enhanced = codes(said)?.enhanced;
  const subject = enhanced?.split('.')[1];
  if (subject === '7') {
    return (
      `the provider refuses the sender: ${said}; ` +
      'fix SPF/DKIM/DMARC with `waitlist domain`, or ask the provider why'
    );
  }
  if (subject === '3' || subject === '6') return `the provider refuses the message itself (size or content): ${said}`;
  if (subject === '4') return `the provider cannot route the message: ${said}`;
  if (subject === '5') return `the provider refuses the conversation (protocol): ${said}`;
  if (enhanced === '5.2.2') return `mailboxes are full: ${said}`;
  return `the provider refuses without naming the recipient's mailbox: ${said}`;
}

/**
 * What the journal keeps of a refusal: the reply code and enhanced status ("550 5.1.1"), or the
 * error's code. Never the reply's text: servers echo the address in it, in any letter case.
 */
export function detail(error: unknown) {
  const { code, responseCode, response, command } = (error ?? {}) as SmtpError;
  if (!responseCode) return code ?? 'error';
  if (badAddress(response ?? '', command)) return BAD_ADDRESS;
  const enhanced = codes(response ?? '')?.enhanced;
  return enhanced ? `${responseCode} ${enhanced}` : String(responseCode);
}

/** The reply's text for the owner's terminal (never stored), with anything like an address cut out. */
export function reply(error: unknown) {
  const { response, message: text } = (error ?? {}) as { response?: string; message?: string };
  return String(response ?? text ?? error)
    .replace(/[^\s<>"'()[\],;:]+@[^\s<>"'()[\],;:]+/gu, '<address>')
    .slice(0, 300);
}

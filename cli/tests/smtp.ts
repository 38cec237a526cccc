/** A real SMTP server on loopback (smtp-server), recording every message it accepted. */
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

/** `raw`: the message as it arrived (what a DKIM verifier reads). */
export type Accepted = { envelopeTo: string[]; mail: ParsedMail; raw: Buffer };
type Answer = { code: number; message: string } | undefined;

export type Inbox = {
  url: string;
  accepted: Accepted[];
  /** Connections opened, and the passwords offered (AUTH), in order. */
  connections: number;
  passwords: string[];
  /** Messages whose DATA the server holds without answering (see holdAfter). */
  held: number;
  /** Per recipient: an SMTP refusal to answer RCPT TO with, or nothing to accept it. */
  answerRcpt: (address: string) => Answer;
  /** Accept this many messages, then hold every further one unanswered (a server mid-reply). */
  holdAfter: number;
  /** Accepts the held messages now and every later one. */
  release(): void;
  deliveredTo(address: string): number;
  close(): Promise<void>;
};

/** `options`: smtp-server's, e.g. `secure` with a key and certificate, or AUTH without TLS. */
export async function startInbox(options: SMTPServerOptions = {}): Promise<Inbox> {
  let answering = 0;
  const holding: (() => void)[] = [];
  const inbox: Inbox = {
    url: '',
    accepted: [],
    connections: 0,
    passwords: [],
    held: 0,
    answerRcpt: () => undefined,
    holdAfter: Infinity,
    release() {
      inbox.holdAfter = Infinity;
      for (const answer of holding.splice(0)) answer();
    },
    deliveredTo: (address) => inbox.accepted.filter((a) => a.envelopeTo.includes(address)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1_000_000,
    onConnect(_session, callback) {
      inbox.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      inbox.passwords.push(auth.password ?? '');
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const answer = inbox.answerRcpt(address.address);
      if (!answer) return callback();
      callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      const raw = buffer(stream);
      const parsed = raw.then(async (bytes) => ({ raw: bytes, mail: await simpleParser(bytes) }));
      parsed.catch(() => undefined); // a held message's client may be killed mid-way
      const accept = () =>
        parsed.then(({ raw, mail }) => {
          inbox.accepted.push({ envelopeTo, mail, raw });
          callback();
        }, callback);
      // Counted when the data starts, so two connections at once cannot both pass the limit.
      if (answering++ >= inbox.holdAfter) {
        inbox.held += 1;
        holding.push(accept); // read it, answer only when released
        return;
      }
      accept();
    },
    ...options,
  });
  server.on('error', () => undefined); // a client killed mid-conversation resets its connection
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scheme = options.secure ? 'smtps' : 'smtp';
  inbox.url = `${scheme}://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return inbox;
}

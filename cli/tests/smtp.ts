/** A real SMTP server on loopback (smtp-server), recording every message it accepted. */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export type Accepted = { envelopeTo: string[]; mail: ParsedMail };
type Answer = { code: number; message: string } | undefined;

export type Inbox = {
  url: string;
  accepted: Accepted[];
  /** Messages whose DATA the server holds without answering (see holdAfter). */
  held: number;
  /** Per recipient: an SMTP refusal to answer RCPT TO with, or nothing to accept it. */
  answerRcpt: (address: string) => Answer;
  /** Accept this many messages, then hold every further one unanswered (a server mid-reply). */
  holdAfter: number;
  deliveredTo(address: string): number;
  close(): Promise<void>;
};

export async function startInbox(): Promise<Inbox> {
  let answering = 0;
  const inbox: Inbox = {
    url: '',
    accepted: [],
    held: 0,
    answerRcpt: () => undefined,
    holdAfter: Infinity,
    deliveredTo: (address) => inbox.accepted.filter((a) => a.envelopeTo.includes(address)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1_000_000,
    onRcptTo(address, _session, callback) {
      const answer = inbox.answerRcpt(address.address);
      if (!answer) return callback();
      callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      // Counted when the data starts, so two connections at once cannot both pass the limit.
      if (answering++ >= inbox.holdAfter) {
        inbox.held += 1;
        stream.resume(); // read it, never answer
        return;
      }
      simpleParser(stream).then((mail) => {
        inbox.accepted.push({ envelopeTo, mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  inbox.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return inbox;
}

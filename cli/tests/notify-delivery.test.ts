/**
 * Exactly once where SMTP itself is ambiguous: a connection lost after the message was handed
 * over, and stored addresses that the mailer would deliver to someone else's mailbox.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterArgs } from './notify-letter';
import { useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { startInbox } from './smtp';

const db = useOwnDatabase('cli_delivery');
/** `notify --json` for `campaign`, through the SMTP server at `smtpUrl`. */
const notify = (campaign: string, smtpUrl: string) =>
  waitlist([...letterArgs(campaign), '--json'], { SMTP_URL: smtpUrl });

/** An SMTP server that takes the first message whole, then drops the connection before its 250. */
function dropAfterFirstMessage() {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.write('220 loopback ESMTP\r\n');
    let buffer = '';
    let inData = false;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          if (++state.messages === 1) {
            socket.destroy();
            return;
          }
          socket.write('250 queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const command = buffer.slice(0, 4).toUpperCase();
        buffer = buffer.slice(newline + 2);
        if (command === 'EHLO') {
          socket.write('250-loopback\r\n250 8BITMIME\r\n');
        } else if (command === 'DATA') {
          socket.write('354 go on\r\n');
          inData = true;
        } else if (command === 'QUIT') {
          socket.end('221 bye\r\n');
        } else {
          socket.write('250 ok\r\n');
        }
      }
    });
  });
  const state = { server, messages: 0, url: '' };
  return state;
}

describe('a connection lost after the message was handed over', () => {
  const smtp = dropAfterFirstMessage();
  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    smtp.url = `smtp://127.0.0.1:${(smtp.server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => smtp.server.close());

  it('is uncertain, not retried: the server gets the message once, the next run names it', async () => {
    await db.owner.query('delete from public.waiting_list'); // the seed's address too: one message in all
    await db.owner.query(`insert into public.waiting_list (email) values ('once@example.com')`);
    const first = await notify('dropped', smtp.url);
    expect(smtp.messages).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ sentNow: 0, uncertain: 1, leftToSend: 0 });
    expect(first.code).toBe(4); // only uncertain left: its own code and words
    expect(first.stderr).toContain('Only the 1 uncertain addresses are left');

    const second = await notify('dropped', smtp.url);
    expect(smtp.messages).toBe(1);
    expect(second.stderr).toContain('once@example.com');
    expect(JSON.parse(second.stdout)).toMatchObject({ sentNow: 0, uncertain: 1 });
    expect(second.code).toBe(4);
  });
});

describe('stored addresses the mailer would deliver elsewhere', () => {
  it('are never sent: one person gets one message, whatever variants of the address were stored', async () => {
    const inbox = await startInbox();
    const lookAlikes = ['twice@example.coｍ', 'twice@ｅxample.com', 'twice@example.com。']; // the mailer maps them
    const variants = ['<twice@example.com>', 'twice@example.com>', '<twice@example.com', ...lookAlikes];
    for (const email of ['twice@example.com', ...variants]) {
      await db.owner.query('insert into public.waiting_list (email) values ($1)', [email]);
    }
    const run = await notify('variants', inbox.url);
    await inbox.close();
    expect(inbox.deliveredTo('twice@example.com')).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ failed: variants.length, leftToSend: 0, uncertain: 0 });
  });
});

describe('a refusal that echoes the address', () => {
  it('is journaled as its reply code only, so no address stays behind, before or after erase', async () => {
    const inbox = await startInbox();
    await db.owner.query(`insert into public.waiting_list (email) values ('bounce-Ada@Example.COM')`);
    // As a real server answers: the address as it arrived, the domain lower-cased by the mailer.
    inbox.answerRcpt = (address) =>
      address.startsWith('bounce-')
        ? { code: 550, message: `5.1.1 <${address}>: Recipient address rejected` }
        : undefined;
    const run = await notify('echoed', inbox.url);
    await inbox.close();
    expect(JSON.parse(run.stdout).failures).toEqual([{ detail: '550 5.1.1', n: 1 }]);
    const details = async () =>
      (await db.owner.query(`select detail from private.notify_journal where detail is not null`)).rows.map(
        (r) => r.detail,
      );
    expect((await details()).join('\n')).not.toMatch(/bounce|@/i);
    expect((await waitlist(['erase', 'bounce-ada@example.com', '--yes'])).code).toBe(0);
    expect((await details()).join('\n')).not.toMatch(/bounce|@/i);
  });
});

/**
 * notify against a real SMTP server on loopback: exactly once, retries, refusals; on a
 * sealed list, each address opened with the owner's key and delivered as signed up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterArgs, recipients, SITE_URL, TEXT, unsendable } from './notify-letter';
import { useOwnDatabase } from './own-database';
import { keysInit } from './keys-init';
import { waitlist } from './run-cli';
import { onTheWire, seed } from './seed';
import { startInbox, type Inbox } from './smtp';

const db = useOwnDatabase('cli_notify');
let inbox: Inbox;
beforeAll(async () => {
  await seed(db.owner);
  const init = await keysInit();
  process.env.WAITLIST_OWNER_KEY_FILE = init.keyFile; // the commands' child processes inherit it
  inbox = await startInbox();
});
afterAll(() => inbox.close());

const notify = (campaign: string, ...more: string[]) =>
  waitlist([...letterArgs(campaign), ...more], { SMTP_URL: inbox.url });

describe('waitlist notify', () => {
  it('without the owner key says so, exits 2, shows no address and sends nothing', async () => {
    const before = inbox.accepted.length;
    const run = await waitlist(letterArgs('keyless'), { SMTP_URL: inbox.url, WAITLIST_OWNER_KEY_FILE: '' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain("The list is sealed: notify needs a holder's private key.");
    for (const email of await recipients(db.owner)) expect(run.stderr).not.toContain(email);
    expect(inbox.accepted.length).toBe(before);
  });

  it('refuses to start without UNSUBSCRIBE_SECRET, or with a one-click URL not https://, sending nothing', async () => {
    const before = inbox.accepted.length;
    const secretless = await waitlist(letterArgs('no-secret'), { SMTP_URL: inbox.url, UNSUBSCRIBE_SECRET: '' });
    expect(secretless.code).toBe(2);
    expect(secretless.stderr).toContain(
      'UNSUBSCRIBE_SECRET is not set: set it to the secret the unsubscribe function holds',
    );
    const plain = await waitlist(letterArgs('plain-url', { unsubscribeUrl: 'http://project.supabase.example/u' }), {
      SMTP_URL: inbox.url,
    });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('The unsubscribe URL must be https://');
    const projectArgs = letterArgs('no-project');
    projectArgs.splice(projectArgs.indexOf('--unsubscribe-url'), 2); // the default: the project's function
    const projectless = await waitlist([...projectArgs, '--to', 'me@product.example'], {
      SMTP_URL: inbox.url,
      VITE_SUPABASE_URL: 'https://ref.supabase.example',
    });
    expect(projectless.code, projectless.stderr).toBe(0);
    expect(inbox.accepted.at(-1)?.mail.headers.get('list')).toMatchObject({
      unsubscribe: {
        url: expect.stringMatching(/^https:\/\/ref\.supabase\.example\/functions\/v1\/unsubscribe\?token=/),
      },
    });
    expect(inbox.accepted.length).toBe(before + 1);
  });

  it('sends each address one message, alone, with List-Unsubscribe and a text part; a rerun sends none', async () => {
    inbox.accepted.length = 0;
    const everyone = (await recipients(db.owner)).filter((email) => !unsendable(email));
    const first = await notify('launch', '--json');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      sentNow: everyone.length,
      leftToSend: 0,
      uncertain: 0,
      failed: 1,
      failures: [{ detail: '501 RCPT TO', n: 1 }],
    });
    expect(inbox.accepted.map((a) => a.envelopeTo[0]).sort()).toEqual(everyone.map(onTheWire).sort());
    for (const { envelopeTo, mail } of inbox.accepted) {
      expect(envelopeTo).toHaveLength(1);
      expect(mail.to).toMatchObject({ value: [{ address: expect.any(String) }] });
      expect((mail.to as { value: unknown[] }).value).toHaveLength(1);
      expect(mail.cc).toBeUndefined();
      expect(mail.headers.get('list')).toEqual({
        unsubscribe: {
          url: expect.stringMatching(
            /^https:\/\/project\.supabase\.example\/functions\/v1\/unsubscribe\?token=[\w-]{86}$/,
          ),
          mail: 'reply@product.example?subject=unsubscribe',
        },
        'unsubscribe-post': { name: 'List-Unsubscribe=One-Click' },
      });
      // The owner's text as written, then the body's unsubscribe link, with the header link's token.
      const { url } = (mail.headers.get('list') as { unsubscribe: { url: string } }).unsubscribe;
      const token = new URL(url).searchParams.get('token');
      expect(mail.text).toBe(`${TEXT}\nUnsubscribe: ${SITE_URL}/unsubscribe#${token}\n`);
    }
    const second = await notify('launch');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('sent: 0 in this run');
    expect(inbox.accepted.length).toBe(everyone.length);
  });

  it('retries a temporary refusal (4xx) and then delivers once', async () => {
    inbox.accepted.length = 0;
    let refused = 0;
    inbox.answerRcpt = (address) =>
      address === 'ada@example.com' && refused++ < 2 ? { code: 451, message: 'Try again later' } : undefined;
    const { code, stderr } = await notify('retry');
    inbox.answerRcpt = () => undefined;
    expect(code, stderr).toBe(0);
    expect(refused).toBe(3);
    expect(inbox.deliveredTo('ada@example.com')).toBe(1);
  });
});

/**
 * notify --preview: the message as a recipient gets it, in a page on this machine, made with no
 * database, SMTP server or UNSUBSCRIBE_SECRET; the same letter sent with --to arrives as the page
 * shows it: subject, both parts with the unsubscribe footer, the unsubscribe headers.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../../contracts/unsubscribe-token';
import { attribute, elements } from '../../vite/html-edit';
import { letterArgs, SITE_URL, UNSUBSCRIBE_URL } from './notify-letter';
import { waitlist } from './run-cli';
import { startInbox, type Inbox } from './smtp';

const folder = mkdtempSync(join(tmpdir(), 'preview-'));
/** The owner's HTML, a script in it: the preview shows it, and runs none. */
const HTML = '<html><body><p>We launched &amp; you are in.</p><script>document.title = "ran"</script></body></html>';
const htmlFile = join(folder, 'launch.html');
writeFileSync(htmlFile, HTML);
const args = [...letterArgs('preview'), '--html', htmlFile];
/** Nothing a send needs but the letter and the two public URLs. */
const nothing = { DATABASE_URL: '', SMTP_URL: '', UNSUBSCRIBE_SECRET: '', DKIM_PRIVATE_KEY: '' };
const pageLink = `${SITE_URL}/unsubscribe#${TEST_TOKEN}`;
const FOOTER_HTML = `<p><a href="${pageLink}">Unsubscribe</a></p>\n`;

let inbox: Inbox;
beforeAll(async () => {
  inbox = await startInbox();
});
afterAll(() => inbox.close());

/** The page's element with this id (parsed as a browser parses it: entities decoded). */
function byId(html: string, id: string) {
  const element = elements(html).find((e) => attribute(e, 'id') === id)!;
  return { element, text: element.childNodes.map((node) => ('value' in node ? node.value : '')).join('') };
}
/** A header's value, unfolded, from a header block (the page's or the raw message's). */
const header = (block: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'm').exec(block.replace(/\r?\n[ \t]+/g, ' '))?.[1];

describe('notify --preview', () => {
  it('writes, with no database, SMTP server or secret, the page of the message --to delivers', async () => {
    const file = join(folder, 'preview.html');
    const preview = await waitlist([...args, '--preview', file], nothing);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toBe(`${file}\n`);
    const page = readFileSync(file, 'utf8');

    const sent = await waitlist([...args, '--to', 'me@product.example'], { ...nothing, SMTP_URL: inbox.url });
    expect(sent.code, sent.stderr).toBe(0);
    const [{ mail, raw }] = inbox.accepted;
    const received = raw.toString().split(/\r?\n\r?\n/)[0];

    expect(byId(page, 'subject').text).toBe(mail.subject);
    expect(byId(page, 'text').text).toBe(mail.text);
    expect(mail.text).toBe(
      `We launched.\n\nReply "unsubscribe" to hear no more from us.\n\nUnsubscribe: ${pageLink}\n`,
    );
    const frame = byId(page, 'html').element;
    expect(attribute(frame, 'srcdoc')).toBe(mail.html);
    expect(mail.html).toBe(HTML.replace('</body>', `${FOOTER_HTML}</body>`));
    const shown = byId(page, 'headers').text;
    for (const name of ['From', 'Reply-To', 'Subject', 'List-Unsubscribe', 'List-Unsubscribe-Post']) {
      expect(header(shown, name), name).toBe(header(received, name));
    }
    expect(header(shown, 'List-Unsubscribe')).toBe(
      `<${UNSUBSCRIBE_URL}?token=${TEST_TOKEN}>, <mailto:reply@product.example?subject=unsubscribe>`,
    );
    // The owner's HTML is shown in a frame that runs no script; the page itself has none.
    expect(attribute(frame, 'sandbox')).toBe('');
    expect(elements(page).filter((e) => e.tagName === 'script')).toEqual([]);
  });

  it('never writes over a file it did not write, and needs the site address for the body link', async () => {
    const file = join(folder, 'taken.html');
    writeFileSync(file, 'mine');
    const taken = await waitlist([...args, '--preview', file], nothing);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`${file} exists and is not a preview: give another file, or --force`);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const siteless = await waitlist([...args, '--preview', join(folder, 'new.html')], {
      ...nothing,
      VITE_SITE_URL: '',
    });
    expect(siteless.code).toBe(2);
    expect(siteless.stderr).toContain('VITE_SITE_URL is not set');
  });
});

/**
 * A campaign's letter (private.notify_campaigns), recorded at its first real send: the sender, the reply address, the
 * subject, and each body's file and sha256 digest. A later run needs only --campaign; a changed letter is refused once
 * the campaign has sent to anyone.
 */
import { hash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Queryable } from '../../connect/queries.ts';
import { UsageError } from '../../terminal/terminal.ts';
import { type Letter, type LetterOptions, shown } from './letter.ts';

type Body = { file: string; sha256: string };
export type Recorded = { from: string; replyTo: string; subject: string; text: Body; html?: Body };
export type Stored = { letter?: Recorded; sent: number };
type Given = Partial<LetterOptions> & { campaign: string };

const body = (file: string, text: string): Body => ({ file: resolve(file), sha256: hash('sha256', text) });

/** The recorded letter, and how many messages the campaign has given the SMTP server. */
export async function storedLetter(db: Queryable, campaign: string): Promise<Stored> {
  const { rows } = await db.query(
    `select (select letter from private.notify_campaigns where campaign = $1) as letter,
       (select count(*)::int from private.notify_journal where campaign = $1 and state in ('sent', 'sending')) as sent`,
    [campaign],
  );
  return { letter: rows[0].letter ?? undefined, sent: rows[0].sent };
}

/** The options given, the recorded letter's for the rest. */
export function letterOptions(given: Given, recorded?: Recorded): LetterOptions {
  const from = given.from ?? recorded?.from;
  const subject = given.subject ?? recorded?.subject;
  const text = given.text ?? recorded?.text.file;
  if (!from || subject === undefined || !text) {
    throw new UsageError(
      `Campaign "${given.campaign}" has no recorded letter: ` +
        'give --from, --subject and --text (its first send records them).',
    );
  }
  return { from, subject, text, replyTo: given.replyTo ?? recorded?.replyTo, html: given.html ?? recorded?.html?.file };
}

export function recordOf(letter: Letter, files: LetterOptions): Recorded {
  const html = letter.html && files.html ? { html: body(files.html, letter.html) } : {};
  const text = body(files.text, letter.text);
  return { from: shown(letter.from), replyTo: shown(letter.replyTo), subject: letter.subject, text, ...html };
}

/** What differs between two letters, in the owner's words. */
export function changes(now: Recorded, before: Recorded) {
  return [
    now.from !== before.from && 'the sender (--from)',
    now.replyTo !== before.replyTo && 'the reply address (--reply-to)',
    now.subject !== before.subject && 'the subject (--subject)',
    now.text.sha256 !== before.text.sha256 && 'the text (--text)',
    now.html?.sha256 !== before.html?.sha256 && 'the HTML (--html)',
  ].filter((change) => typeof change === 'string');
}

/** Refuses `now` when the campaign sent another letter; returns what changed (nothing sent yet: it may). */
export function sameLetter(campaign: string, now: Recorded, { letter, sent }: Stored) {
  const changed = letter ? changes(now, letter) : [];
  if (changed.length && sent) {
    throw new UsageError(
      `Campaign "${campaign}" has sent ${sent} messages of another letter; changed since: ${changed.join(', ')}. ` +
        'A campaign sends one letter: send the old one with --campaign alone, or this one as a new campaign ' +
        '(--campaign <new name>), which goes to everyone on the list again. Nothing was sent.',
    );
  }
  return changed;
}

export async function remember(db: Queryable, campaign: string, letter: Recorded) {
  await db.query(
    `insert into private.notify_campaigns (campaign, letter) values ($1, $2)
     on conflict (campaign) do update set letter = excluded.letter, recorded_at = now()
       where notify_campaigns.letter is distinct from excluded.letter`,
    [campaign, letter],
  );
}

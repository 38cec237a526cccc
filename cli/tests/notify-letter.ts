/** The launch email the notify tests send, and the campaign's expected recipients. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';

export const TEXT = 'We launched.\n\nReply "unsubscribe" to hear no more from us.\n';

export function letterArgs(campaign: string): string[] {
  const text = join(mkdtempSync(join(tmpdir(), 'notify-')), 'launch.txt');
  writeFileSync(text, TEXT);
  return [
    'notify',
    '--campaign',
    campaign,
    '--from',
    'Launch <launch@product.example>',
    '--reply-to',
    'Replies <reply@product.example>',
    '--subject',
    'We launched',
    '--text',
    text,
    '--backoff',
    '20',
  ];
}

/** The addresses a full send must reach: the list minus the do-not-email list. */
export async function recipients(owner: Client): Promise<string[]> {
  const { rows } = await owner.query(
    'select email from public.waiting_list where private.may_email(email, created_at) order by email',
  );
  return rows.map((row) => row.email);
}

/** The list's sealing as the database tells it (private.seal_status()): read by count and health. */
import type { Queryable } from '../connect/queries.ts';
import { plural } from '../findings/finding.ts';

type SealStatus = Record<'sealing' | 'stalled', boolean> & Record<'plaintext' | 'unhashed' | 'unreadable', number>;

export async function sealStatus(db: Queryable): Promise<SealStatus> {
  const { rows } = await db.query<SealStatus>(
    `select sealing, stalled, plaintext::int, unhashed::int, unreadable::int from private.seal_status()`,
  );
  return rows[0];
}

/** What is wrong with the sealing, in the owner's words; none when all is well. */
export function sealingFaults(s: SealStatus): string[] {
  if (!s.sealing) {
    return [
      `Not sealed: the ${plural(s.plaintext, 'signup')} on the list are stored as typed, readable by whoever takes ` +
        'the database (npm run waitlist -- keys init).',
    ];
  }
  const faults = [
    s.stalled &&
      "A past hour's key is still held in clear: the pg_cron job waitlist-seal-hour-keys, which empties " +
        "them each minute, is missing or failing, so a copy of the database opens that hour's signups.",
    s.plaintext &&
      `${plural(s.plaintext, 'signup')} restored with the triggers off still in plaintext ` +
        '(count, export, erase and notify seal them).',
    s.unhashed && `${plural(s.unhashed, 'signup')} without an address hash, outside the duplicate check.`,
    s.unreadable && `${plural(s.unreadable, 'signup')} with neither an address nor a seal.`,
  ];
  return faults.filter((fault): fault is string => Boolean(fault));
}

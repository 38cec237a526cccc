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
export function sealingFaults({ sealing, stalled, plaintext, unhashed, unreadable }: SealStatus) {
  if (!sealing) {
    return [
      `Not sealed: the ${plural(plaintext, 'signup')} on the list are stored as typed, readable by whoever takes ` +
        'the database (npm run waitlist -- keys init).',
    ];
  }
  const faults = [
    stalled &&
      "A past hour's key is still held in clear: the pg_cron job waitlist-seal-hour-keys, which empties " +
        "them each minute, is missing or failing, so a copy of the database opens that hour's signups.",
    plaintext &&
      `${plural(plaintext, 'signup')} restored with the triggers off still in plaintext ` +
        '(count, export, erase and notify seal them).',
    unhashed && `${plural(unhashed, 'signup')} without an address hash, outside the duplicate check.`,
    unreadable && `${plural(unreadable, 'signup')} with neither an address nor a seal.`,
  ];
  return faults.filter((fault) => typeof fault === 'string');
}

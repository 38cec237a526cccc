/** Whether the list is sealed at rest, and its ratchet moving (private.seal_status(), supabase/security.md). */
import type pg from 'pg';
import { duration, ok, plural, problem, type Finding } from './finding.ts';

export type SealStatus = {
  sealing: boolean;
  scheme: 'hourly' | 'ratchet' | null;
  step: number | null;
  moved_seconds_ago: number | null;
  stalled: boolean;
  plaintext: number;
  unkeyed: number;
  unreadable: number;
};

export async function sealStatus(db: pg.Client | pg.PoolClient): Promise<SealStatus> {
  const { rows } = await db.query<SealStatus>(
    `select sealing, scheme, step, extract(epoch from now() - advanced_at)::int as moved_seconds_ago, stalled,
            plaintext::int, unkeyed::int, unreadable::int
     from private.seal_status()`,
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
  return [
    ...(s.stalled && s.scheme === 'hourly'
      ? [
          "A past hour's sealing key is still held in clear: the pg_cron job " +
            'waitlist-seal-hour-keys, which empties them each minute, is missing or failing, so a copy of the ' +
            "database opens that hour's signups.",
        ]
      : []),
    ...(s.stalled && s.scheme === 'ratchet'
      ? [
          `The sealing key has not moved for ${duration(s.moved_seconds_ago)} (step ${s.step}): its hourly pg_cron job ` +
            '(waitlist-seal-ratchet) is missing or failing, so the key the database holds opens every signup since then.',
        ]
      : []),
    ...(s.plaintext
      ? [
          `${plural(s.plaintext, 'signup')} restored with the triggers off still in plaintext (count, export, erase and notify seal them).`,
        ]
      : []),
    ...(s.unkeyed ? [`${plural(s.unkeyed, 'signup')} without a key row, outside the duplicate check.`] : []),
    ...(s.unreadable ? [`${plural(s.unreadable, 'signup')} with neither an address nor a seal.`] : []),
  ];
}

export async function checkSealing(db: pg.Client): Promise<Finding> {
  const status = await sealStatus(db);
  const faults = sealingFaults(status);
  if (!faults.length) {
    return ok(
      'sealing',
      status.scheme === 'hourly'
        ? "Every address sealed; the database holds only the current hour's key in clear."
        : `Every address sealed; step ${status.step}, moved ${duration(status.moved_seconds_ago)} ago.`,
    );
  }
  return problem(
    'sealing',
    faults.join(' '),
    status.sealing
      ? 'npm run waitlist -- count seals what waits; for the keys, see the waitlist-seal-hour-keys (or -ratchet) finding.'
      : 'npm run waitlist -- keys init (docs/operations.md, "Sealing the list").',
  );
}

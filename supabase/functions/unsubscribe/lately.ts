/**
 * The hashes this instance has put on the do-not-email list lately, so that a repeat (a mail
 * program that POSTs twice, a recipient clicking on and on, a flood of one link) is answered
 * without a database round trip, and a repeat that arrives while the first is under way waits
 * for it instead of taking a connection of its own. A failure is not remembered.
 *
 * Bounded in size (MAX_ENTRIES, the oldest dropped first: about 2 MB) and in age (MAX_AGE_MS):
 * the database stays the authority. An entry the owner erased after its unsubscribe (reason
 * 'erased') is turned back into 'unsubscribed' by the first repeat after MAX_AGE_MS.
 */
const MAX_ENTRIES = 10_000;
const MAX_AGE_MS = 5 * 60_000;

/** The hash's bytes as a string → its unsubscribe (done or under way) and when it started. */
const lately = new Map<string, { done: Promise<void>; at: number }>();

/** `store(hash)`, unless the same hash was stored (or is being stored) lately. */
export function onceLately(hash: Uint8Array, store: (hash: Uint8Array) => Promise<void>): Promise<void> {
  const key = String.fromCharCode(...hash);
  const entry = lately.get(key);
  if (entry && Date.now() - entry.at < MAX_AGE_MS) return entry.done;
  lately.delete(key); // re-inserted below: a Map keeps insertion order, so the oldest comes first
  const done = store(hash);
  lately.set(key, { done, at: Date.now() });
  done.catch(() => lately.get(key)?.done === done && lately.delete(key));
  if (lately.size > MAX_ENTRIES) lately.delete(lately.keys().next().value!);
  return done;
}

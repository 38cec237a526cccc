/**
 * npm run bench:guesses — how fast a thief holding a copy of the database tests
 * guessed addresses against the list's address hash, on one core (supabase/security.md,
 * "Pseudonymous, not anonymous"). A guess: a candidate's address hash, looked up among 100,000
 * stored hashes. Before: SHA-256(secret ‖ canonical address) alone (private.keyed_hash, what the
 * address hash was until 2026-11-26); after: that, then ROUNDS rounds of HMAC-SHA256 under the
 * secret (private.stretch_hash), with Node's createHmac and the secret made a KeyObject once (a
 * raw key costs createHmac several times more). Both hashes are first checked against the
 * database's own functions, on a throwaway server. Before and after alternate, three rounds each;
 * guesses per second.
 */
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startCluster } from '../harness/cluster';
import { connect } from '../harness/database';
import { createWaitlistDatabase } from '../harness/migrations';

/** The rounds of private.stretch_hash (supabase/migrations/20261128100000_waiting_list.sql). */
const ROUNDS = 64;
const STORED = 100_000;
const ROUNDS_OF_EACH = 3;
const SECONDS_EACH = 3;

const before = (secret: Buffer, candidate: string) => createHash('sha256').update(secret).update(candidate).digest();

function after(secret: Buffer, key: KeyObject, candidate: string): Buffer {
  let h = before(secret, candidate);
  for (let i = 0; i < ROUNDS; i += 1) h = createHmac('sha256', key).update(h).digest();
  return h;
}

let matched = 0;

/** Guesses per second: candidates hashed and looked up for SECONDS_EACH seconds. */
function rate(hash: (candidate: string) => Buffer, stored: Set<string>): number {
  let tried = 0;
  const started = performance.now();
  const until = started + SECONDS_EACH * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 100; i += 1) {
      if (stored.has(hash(`guess.${tried}@example.com`).toString('latin1'))) matched += 1;
      tried += 1;
    }
  }
  return Math.round(tried / ((performance.now() - started) / 1000));
}

// Checked against the database: the same secret and address give the same hashes.
const cluster = await startCluster();
let secret: Buffer;
try {
  const owner = await connect(await createWaitlistDatabase(cluster), 'postgres');
  const address = 'first.last@example.com'; // already its private.canonical_address
  const { rows } = await owner.query(
    `select s.secret, private.canonical_address($1) = $1 as keyed, private.keyed_hash(s.secret, $1) as before,
            private.address_hash($1) as after from private.address_hash_secret s`,
    [address],
  );
  await owner.end();
  secret = rows[0].secret;
  if (
    !rows[0].keyed ||
    !before(secret, address).equals(rows[0].before) ||
    !after(secret, createSecretKey(secret), address).equals(rows[0].after)
  )
    throw new Error(`The hashes here are not the database's: has private.stretch_hash stopped being ${ROUNDS} rounds?`);
} finally {
  await cluster.stop();
}

const key = createSecretKey(secret);
const stored = new Set(Array.from({ length: STORED }, () => randomBytes(32).toString('latin1')));
const ways = [
  { label: 'before: SHA-256(secret ‖ address)', hash: (c: string) => before(secret, c) },
  { label: `after: then ${ROUNDS} rounds of HMAC-SHA256`, hash: (c: string) => after(secret, key, c) },
];
const table: Record<string, string | number>[] = [];
for (let round = 1; round <= ROUNDS_OF_EACH; round += 1) {
  for (const way of ways) {
    const load = loadavg()[0].toFixed(2);
    table.push({ round, hash: way.label, 'guesses / s': rate(way.hash, stored), 'load average': load });
  }
}
console.log(
  `One core, Node ${process.versions.node}; each figure ${SECONDS_EACH} s of guesses; ${STORED} stored hashes.`,
);
console.table(table);
console.log(`Guesses that matched a stored hash: ${matched} (the stored hashes are random).`);
for (const way of ways) {
  const rates = table.filter((row) => row.hash === way.label).map((row) => Number(row['guesses / s']));
  console.log(`median ${way.label}: ${rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]} guesses / s`);
}

/**
 * npm run bench:guesses — how fast a thief holding a copy of the database tests
 * guessed addresses against the list's address hash, on one core (supabase/security.md,
 * "Pseudonymous, not anonymous"). A guess: a candidate's address hash, looked up among 100,000
 * stored hashes. Before: SHA-256(secret ‖ canonical address) alone (private.keyed_hash, what the
 * address hash was until 2026-11-26); after: that, then ROUNDS rounds of HMAC-SHA256 under the
 * secret (private.stretch_hash), with Node's createHmac and the secret made a KeyObject once (a
 * raw key costs createHmac several times more). Both hashes are first checked against the
 * database's own functions, on a throwaway server. Then a native guesser (guesses.py): the same
 * rounds with HMAC's inner and outer states computed once and copied, two SHA-256 compressions a
 * round in OpenSSL's C through Python's hashlib, a lower bound for native code (the interpreter
 * pays for every call). Before, after and native alternate, three rounds each; guesses per second.
 * Last, `openssl speed sha256` gives this core's compression rate, on which a C guesser's rate is
 * ESTIMATED (printed as such): 2 compressions a round, 128 a guess.
 */
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
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
let databaseHash: Buffer;
const address = 'first.last@example.com'; // already its private.canonical_address
try {
  const owner = await connect(await createWaitlistDatabase(cluster), 'postgres');
  const { rows } = await owner.query(
    `select s.secret, private.canonical_address($1) = $1 as keyed, private.keyed_hash(s.secret, $1) as before,
            private.address_hash($1) as after from private.address_hash_secret s`,
    [address],
  );
  await owner.end();
  secret = rows[0].secret;
  databaseHash = rows[0].after;
  if (
    !rows[0].keyed ||
    !before(secret, address).equals(rows[0].before) ||
    !after(secret, createSecretKey(secret), address).equals(rows[0].after)
  ) {
    throw new Error(`The hashes here are not the database's: has private.stretch_hash stopped being ${ROUNDS} rounds?`);
  }
} finally {
  await cluster.stop();
}

const key = createSecretKey(secret);
const stored = new Set(Array.from({ length: STORED }, () => randomBytes(32).toString('latin1')));
/** guesses.py's guesses per second; it first checks its hash against the database's (exit 1). */
function native(): number {
  const script = fileURLToPath(new URL('guesses.py', import.meta.url));
  const input = `${secret.toString('hex')}\n${address}\n${databaseHash.toString('hex')}\n`;
  const run = spawnSync('python3', [script, String(SECONDS_EACH)], { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 guesses.py: ${run.error ?? run.stderr}`);
  const [rate, found] = run.stdout.split(' ').map(Number);
  matched += found;
  return rate;
}

const ways = [
  { label: 'before: SHA-256(secret ‖ address)', measure: () => rate((c) => before(secret, c), stored) },
  { label: `after: then ${ROUNDS} rounds of HMAC-SHA256`, measure: () => rate((c) => after(secret, key, c), stored) },
  { label: `native: the same, HMAC states copied (Python)`, measure: native },
];
const table: Record<string, string | number>[] = [];
for (let round = 1; round <= ROUNDS_OF_EACH; round += 1) {
  for (const way of ways) {
    const load = loadavg()[0].toFixed(2);
    table.push({ round, hash: way.label, 'guesses / s': way.measure(), 'load average': load });
  }
}
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `One core, Node ${process.versions.node}, ${python}; ` +
    `each figure ${SECONDS_EACH} s of guesses; ${STORED} stored hashes.`,
);
console.table(table);
console.log(`Guesses that matched a stored hash: ${matched} (the stored hashes are random).`);
const median = new Map<string, number>();
for (const way of ways) {
  const rates = table.filter((row) => row.hash === way.label).map((row) => Number(row['guesses / s']));
  median.set(way.label, rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]);
  console.log(`median ${way.label}: ${median.get(way.label)} guesses / s`);
}

/** `openssl speed`: bytes of SHA-256 per second, hashing `bytes` at a time, on one core. */
function opensslSpeed(bytes: number): number {
  const args = ['speed', '-seconds', '3', '-bytes', String(bytes), '-mr', 'sha256'];
  const run = spawnSync('openssl', args, { encoding: 'utf8' });
  const found = /^\+F:\d+:sha256:([\d.]+)$/m.exec(run.stdout);
  if (!found) throw new Error(`openssl speed: ${run.error ?? run.stderr}`);
  return Number(found[1]);
}
const load = loadavg()[0].toFixed(2);
const calls = opensslSpeed(64) / 64; // each a 64-byte message: 2 compressions (its block, the padding)
const compressions = opensslSpeed(16384) / 64; // long messages: compressions alone
const perGuess = 2 * ROUNDS;
console.log(`\n${spawnSync('openssl', ['version'], { encoding: 'utf8' }).stdout.trim()}, load average ${load}:`);
console.log(`  64-byte messages: ${Math.round(calls)} hashes / s = ${Math.round(2 * calls)} compressions / s`);
console.log(`  16 KiB messages:  ${Math.round(compressions)} compressions / s (bytes / s ÷ 64)`);
console.log(
  `ESTIMATE, a C guesser on one core at ${perGuess} compressions a guess: ` +
    `${Math.round((2 * calls) / perGuess)} (a library call per hash) to ${Math.round(compressions / perGuess)} ` +
    `(compressions alone) guesses / s; ` +
    `measured above, Python ${median.get(ways[2].label)}, Node ${median.get(ways[1].label)}.`,
);

/**
 * How bench:stop (supabase/bench/stop-the-list.ts) attacks: rounds of requests sent over
 * PostgREST-like connections, and after each round a check whether visitors from networks never
 * seen before are refused yet.
 */
import { performance } from 'node:perf_hooks';
import { DatabaseError, type Client } from 'pg';
import { insertEmail, type RequestContext } from '../harness/api-request';

let tag = 0;
export const fresh = () => `stop-${(tag += 1)}@example.com`;
let visitors = 0;

export type Result = {
  way: string;
  stopped: boolean;
  requests: number;
  networks: string;
  seconds: number;
  note: string;
};
export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Stops the guard's clock at `at`, as the db tests do (supabase/tests/guard.ts). */
export async function setClock(owner: Client, at: Date) {
  await owner.query(
    `create or replace function private.signup_clock() returns timestamptz language sql stable
     set search_path = '' as $$ select timestamptz '${at.toISOString()}' $$`,
  );
  await owner.query(`select private.signup_secret(date_trunc('day', $1::timestamptz, 'UTC'))`, [at.toISOString()]);
}

/** Sends every request of `batch` over the connections; returns how many got each code. */
async function send(clients: Client[], batch: { email: string; context: RequestContext }[]) {
  const codes: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < batch.length) {
        const { email, context } = batch[next];
        next += 1;
        let code = 'added';
        try {
          await insertEmail(client, email, context);
        } catch (error) {
          if (!(error instanceof DatabaseError)) throw error;
          code = error.code === 'PGRST' ? (JSON.parse(error.message) as { code: string }).code : (error.code ?? '?');
        }
        codes[code] = (codes[code] ?? 0) + 1;
      }
    }),
  );
  return codes;
}

/**
 * The share of `count` visitors from networks never seen before (IPv4 addresses and IPv6 /48s, half
 * each) that are refused.
 */
async function refusedShare(client: Client, count: number): Promise<number> {
  const batch = range(count).map((i) => {
    visitors += 1;
    return {
      email: fresh(),
      context: {
        clientIp:
          i % 2 ? `100.64.${visitors >> 8}.${visitors & 255}` : `2001:db8:${(0xc000 + visitors).toString(16)}::1`,
      },
    };
  });
  const codes = await send([client], batch);
  return 1 - (codes.added ?? 0) / count;
}

/** What the attack's rounds may look at: whether half of the new visitors are refused yet. */
export const progress = { halfRefused: false };

type Round = { batch: { email: string; context: RequestContext }[]; networks: number; before?: () => Promise<void> };

/**
 * Runs rounds of attack until every one of `visitors` new visitors is refused, or the rounds end;
 * notes when half of them first were.
 */
export async function attack(
  way: string,
  clients: Client[],
  rounds: Iterable<Round>,
  describe: (networks: number) => string,
  note: string,
  visitorsPerCheck = 2,
): Promise<Result> {
  let requests = 0;
  let networks = 0;
  let half = '';
  const started = performance.now();
  let done = false;
  for (const round of rounds) {
    await round.before?.();
    await send(clients, round.batch);
    requests += round.batch.length;
    networks += round.networks;
    const share = await refusedShare(clients[0], visitorsPerCheck);
    if (share >= 0.5 && !half) {
      half = `half refused after ${requests} requests, ${describe(networks)}; `;
      progress.halfRefused = true;
    }
    if (share === 1) {
      done = true;
      break;
    }
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return { way, stopped: done, requests, networks: describe(networks), seconds, note: half + note };
}

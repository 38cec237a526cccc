/**
 * The unsubscribe function under a flood, under Deno against the throwaway PostgreSQL: a few
 * hundred concurrent one-click POSTs cost its role a few connections, never its limit; every one
 * answers 200, and so does another recipient's unsubscribe sent meanwhile. When the database does
 * not answer in time: 503 with Retry-After, from no more connections, and a link it has just
 * handled still answers 200.
 */
import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeToken, unsubscribeKey } from '../../contracts/unsubscribe-token';
import { countRows, useOwnDatabase } from './own-database';
import { seed } from './seed';
import { postOneClick, startFunction, type RunningFunction } from './unsubscribe-function';

/**
 * Connections an instance of the function holds at most (supabase/functions/unsubscribe/database.ts,
 * security.md).
 */
const POOL_SIZE = 4;
const POSTS = 300;
const IN_FLIGHT = 100;

const db = useOwnDatabase('cli_unsubscribe_flood');
let fn: RunningFunction;
let recipients: Buffer[];
let roleLimit: number;
beforeAll(async () => {
  const addresses = ['ada', 'grace', 'alan', 'edsger', 'barbara', 'donald', 'frances'].map(
    (name) => `${name}@example.com`,
  );
  await seed(db.owner, addresses);
  const { rows } = await db.owner.query<{ hash: Buffer }>(
    'select private.address_hash(a) as hash from unnest($1::text[]) with ordinality as given (a, n) order by n',
    [addresses],
  );
  recipients = rows.map((row) => row.hash);
  const role = await db.owner.query("select rolconnlimit from pg_roles where rolname = 'waitlist_unsubscribe'");
  roleLimit = role.rows[0].rolconnlimit;
  fn = await startFunction(db.info);
}, 60_000);
afterAll(() => fn?.stop());

/** A one-click POST: its status and Retry-After. */
async function oneClick(url: string, hash: Uint8Array) {
  const token = await makeToken(await unsubscribeKey(fn.secret), hash);
  const response = await postOneClick(`${url}?token=${token}`);
  await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

/** Runs every task, at most `limit` under way at once; their results in order. */
async function atMost<T>(limit: number, tasks: (() => Promise<T>)[]) {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = next; // taken before the wait: the other workers take the ones after it
      next += 1;
      results[task] = await tasks[task]();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const roleConnections = () => countRows(db.owner, "pg_stat_activity where usename = 'waitlist_unsubscribe'");

/** Runs `flood` while polling the role's connections as the owner: its results and the most seen at once. */
async function watched<T>(flood: Promise<T>) {
  let over = false;
  const result = flood.finally(() => {
    over = true;
  });
  let most = 0;
  while (!over) most = Math.max(most, await roleConnections());
  return { result: await result, most };
}

/** How many of each status. */
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((count, status) => ({ ...count, [status]: (count[status] ?? 0) + 1 }), {});

const onTheList = (hashes: Buffer[]) =>
  countRows(db.owner, "private.do_not_email where address_hash = any($1) and reason = 'unsubscribed'", [hashes]);

/**
 * POSTS one-clicks, IN_FLIGHT at a time, for `hashes` in turn, and a bystander's own unsubscribe
 * five times among them: the flood's answers, the bystander's, and the most connections the role
 * had at once meanwhile.
 */
async function flood(hashes: Buffer[], bystander: Buffer) {
  const tasks: { theirs: boolean; post: () => Promise<{ status: number }> }[] = [];
  for (let i = 0; i < POSTS; i++) {
    tasks.push({ theirs: false, post: () => oneClick(fn.url, hashes[i % hashes.length]) });
    if (i % (POSTS / 5) === 20) tasks.push({ theirs: true, post: () => oneClick(fn.url, bystander) });
  }
  const posts = tasks.map(({ post }) => post);
  const { result, most } = await watched(atMost(IN_FLIGHT, posts));
  const answers = (theirs: boolean) => result.filter((_, i) => tasks[i].theirs === theirs).map(({ status }) => status);
  return { flood: answers(false), bystander: answers(true), most };
}

describe('the unsubscribe function under a flood', () => {
  // A few links, each POSTed again and again: a repeat is answered from what it stored lately (lately.ts).
  it(`answers ${POSTS} concurrent POSTs of a few links 200 each, a bystander's too, within its pool`, async () => {
    const [bystander, ...flooders] = recipients.slice(0, 6);
    const { flood: answers, bystander: theirs, most } = await flood(flooders, bystander);
    expect(tally(answers)).toEqual({ 200: POSTS });
    expect(theirs).toEqual([200, 200, 200, 200, 200]);
    expect(await onTheList([bystander, ...flooders])).toBe(6);
    expect(most, `role limit ${roleLimit}`).toBeLessThanOrEqual(roleLimit);
    expect(most).toBeLessThanOrEqual(POOL_SIZE);
  }, 60_000);

  it(`answers ${POSTS} concurrent POSTs of as many links 200 each within its pool, then closes them`, async () => {
    const bystander = recipients[6];
    const strangers = Array.from({ length: POSTS }, () => randomBytes(32)); // each a database round trip
    const { flood: answers, bystander: theirs, most } = await flood(strangers, bystander);
    expect(tally(answers)).toEqual({ 200: POSTS });
    expect(theirs).toEqual([200, 200, 200, 200, 200]);
    expect(await onTheList([bystander, ...strangers])).toBe(POSTS + 1);
    expect(most, `role limit ${roleLimit}`).toBeLessThanOrEqual(roleLimit);
    expect(most).toBeLessThanOrEqual(POOL_SIZE);
    // Idle connections close within seconds: hosted, every instance counts toward the role's limit.
    await vi.waitFor(async () => expect(await roleConnections()).toBe(0), { timeout: 15_000, interval: 100 });
  }, 60_000);

  // A link it has just handled is answered from what it stored lately (lately.ts), without the database.
  it('answers 503 + Retry-After when the database does not, from at most its pool; a handled link 200', async () => {
    const gate = await databaseGate(`${db.info.host}/.s.PGSQL.${db.info.port}`);
    const behind = await startFunction(db.info, fn.secret, {
      UNSUBSCRIBE_DB_URL: `postgresql://waitlist_unsubscribe@127.0.0.1:${gate.port}/${db.info.database}`,
    });
    try {
      const handled = randomBytes(32);
      expect(await oneClick(behind.url, handled)).toEqual({ status: 200, retryAfter: null });
      gate.close(); // the database stops answering: connections are accepted and never answered
      expect(await oneClick(behind.url, handled)).toEqual({ status: 200, retryAfter: null });
      const unheard = Array.from({ length: POOL_SIZE + 2 }, () => randomBytes(32));
      const answers = await Promise.all(unheard.map((hash) => oneClick(behind.url, hash)));
      expect(answers).toEqual(unheard.map(() => ({ status: 503, retryAfter: '60' })));
      expect(gate.mostHeld()).toBeLessThanOrEqual(POOL_SIZE);
      expect(await onTheList(unheard)).toBe(0);
      expect(behind.output()).toMatch(/unsubscribe failed: .*timeout/i);
    } finally {
      await behind.stop();
      gate.end();
    }
  }, 60_000);
});

/**
 * A loopback TCP port in front of the database's Unix socket. close(): the connections through it
 * are cut, and from then on it accepts connections and never answers them (a database out of
 * reach). mostHeld(): the most of those it held at once; one is let go as soon as its end (FIN)
 * arrives, which is before any connection the function opened after giving it up.
 */
async function databaseGate(socket: string) {
  const open = new Set<net.Socket>();
  let closed = false;
  let held = 0;
  let most = 0;
  const server = net.createServer((client) => {
    open.add(client);
    client.on('error', () => open.delete(client));
    client.on('close', () => open.delete(client));
    if (closed) {
      let counted = false;
      let letGo = false;
      const release = () => {
        if (!letGo && counted) held--;
        letGo = true;
      };
      client.on('end', release).on('error', release).on('close', release).resume(); // resume: read to the end
      // Counted once this turn's other events are handled: a connection the pool let go of in the
      // same instant (its end may be queued behind this accept on a busy machine) is not a second one.
      setImmediate(() => {
        if (letGo) return;
        counted = true;
        most = Math.max(most, ++held);
      });
      return;
    }
    const upstream = net.connect(socket);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => open.forEach((client) => client.destroy());
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      closed = true;
      cut();
    },
    mostHeld: () => most,
    end() {
      cut();
      server.close();
    },
  };
}

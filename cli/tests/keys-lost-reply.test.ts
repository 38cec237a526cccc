/**
 * keys init takes its private key file away on failure only when the database certainly does not
 * hold the public half, asked afresh on a new connection: a connection lost as the key is being
 * installed may have installed it (the server committed, its reply never came), and a key file
 * deleted then would leave a list sealed to a key no one has. Here a proxy (cutting-proxy.ts)
 * drops the command's connection at the chosen moment (`keys compact` then: keys-compact.test.ts).
 * The stored rows are sealed in the transaction that installs the key: none is left as typed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { matches, parseOwnerKey } from '../seal/owner-key';
import { cuttingProxy, type CutAt, type Proxy } from './cutting-proxy';
import { keysInit } from './keys-init';
import { plaintextRows, useOwnDatabase } from './own-database';
import { TEST_PASSPHRASE } from './run-cli';
import { seed } from './seed';

const db = useOwnDatabase('cli_keys_lost_reply');
const INSERT = 'insert into private.key_holders';
let proxy: Proxy | undefined;

afterEach(() => proxy?.close());

async function initThrough(how: CutAt) {
  proxy = await cuttingProxy(db.info, how);
  const init = await keysInit({ DATABASE_URL: proxy.url });
  expect(proxy.cut()).toBe(true);
  expect(init.result.code).not.toBe(0);
  return init;
}

const installed = async () => (await db.owner.query('select public_key from private.key_holders')).rows;

it('a connection lost before the key is installed, the database reachable: the file is taken away', async () => {
  await seed(db.owner);
  const init = await initThrough({ cutAt: (query) => query.startsWith(INSERT), forward: false });
  expect(existsSync(init.keyFile)).toBe(false);
  expect(init.result.stderr).not.toContain('Wrote your private key');
  expect(await installed()).toEqual([]);
});

it('a connection lost, the database unreachable afterwards: the file is kept, and why, and how to check', async () => {
  const init = await initThrough({ cutAt: (query) => query.startsWith(INSERT), forward: false, refuseAfterCut: true });
  expect(existsSync(init.keyFile)).toBe(true);
  expect(init.result.stderr).toContain(`Wrote your private key to ${init.keyFile}`);
  expect(init.result.stderr).toContain('could not ask the database whether it holds your public key');
  expect(init.result.stderr).toContain(`keys check --key-file ${init.keyFile}`);
  expect(init.result.stderr).not.toContain('PRIVATE KEY');
  expect(await installed()).toEqual([]);
});

it('the COMMIT done by the server, its reply lost: the file is kept, the database holds its public half', async () => {
  const init = await initThrough({
    cutAt: (query, before) => query === 'commit' && before.some((sent) => sent.startsWith(INSERT)),
    forward: true,
  });
  expect(existsSync(init.keyFile)).toBe(true);
  expect(init.result.stderr).toContain(`Wrote your private key to ${init.keyFile}`);
  expect(init.result.stderr).toContain('The database holds your public key already, so keep that file');
  expect(init.result.stderr).toContain('npm run waitlist -- keys compact');
  const rows = await installed();
  expect(rows).toHaveLength(1);
  const saved = await parseOwnerKey(readFileSync(init.keyFile, 'utf8'), 'the kept file', TEST_PASSPHRASE);
  expect(await matches(saved, rows[0].public_key)).toBe(true);
  // The rows were sealed with the key, in its transaction: none is left as typed.
  expect(await plaintextRows(db)).toBe(0);
});

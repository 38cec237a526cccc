/**
 * keys init that fails after installing the key (here: its connection lost during VACUUM FULL)
 * still says where the key is and what to do next; `keys compact` does what was left, and can be
 * run again. It refuses a list not sealed yet.
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { COMPACT_LATER } from '../seal/compact';
import { cuttingProxy } from './cutting-proxy';
import { keysInit } from './keys-init';
import { plaintextRows, useOwnDatabase } from './own-database';
import { waitlist } from './run-cli';
import { seed } from './seed';

const db = useOwnDatabase('cli_keys_compact');
const compact = () => waitlist(['keys', 'compact']);

it('is refused on a list not sealed yet, and changes nothing', async () => {
  await seed(db.owner);
  const before = await plaintextRows(db);
  const refused = await compact();
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('The list is not sealed yet: keys init seals it');
  expect(await plaintextRows(db)).toBe(before);
});

it('keys init whose connection is lost while compacting keeps the key, says so, and names keys compact', async () => {
  const cutting = await cuttingProxy(db.info, { cutAt: (query) => query.startsWith('vacuum (full'), forward: false });
  try {
    const init = await keysInit({ DATABASE_URL: cutting.url });
    expect(cutting.cut()).toBe(true);
    expect(init.result.code).not.toBe(0);
    expect(existsSync(init.keyFile)).toBe(true);
    expect(init.result.stderr).toContain(`Wrote your private key to ${init.keyFile}`);
    expect(init.result.stderr).toContain('Move it into your password manager');
    expect(init.result.stderr).toContain(`then run ${COMPACT_LATER}`);
  } finally {
    await cutting.close();
  }
});

it('keys compact then does what was left, and may be run again', async () => {
  for (let run = 0; run < 2; run++) {
    const done = await compact();
    expect(done.stderr).toContain('Compacted: no old row version or column sample of an address is left.');
    expect(done.stderr).not.toContain('pg_statistic');
    expect(done.code).toBe(0);
  }
  expect(await plaintextRows(db)).toBe(0);
});

/** `keys compact`: redoes what follows sealing, on a sealed list only; no key needed. */
import { withDatabase } from '../../connect/database.ts';
import { compact } from '../../seal/compact.ts';
import { sealStored } from '../../seal/install.ts';
import { holders } from '../../seal/open.ts';
import { say, UsageError } from '../../terminal/terminal.ts';

export async function compactSealed() {
  await withDatabase(
    async (db) => {
      if (!(await holders(db)).length) {
        throw new UsageError('The list is not sealed yet: keys init seals it and compacts it.');
      }
      const sealed = await sealStored(db);
      if (sealed) say(`Sealed ${sealed} addresses that were still stored as typed.`);
      if (await compact(db)) say('Compacted: no old row version or column sample of an address is left.');
    },
    { longQueries: true },
  );
}

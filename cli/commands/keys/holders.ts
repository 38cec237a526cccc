import { withDatabase } from '../../connect/database.ts';
import { holders } from '../../seal/open.ts';
import { out } from '../../terminal/terminal.ts';

/** `keys holders`: each holder's number (as health names it), key id, and when its copy was last checked. */
export async function list() {
  for (const h of await withDatabase(holders)) {
    out(`${h.id} ${h.keyId} checked ${h.checkedAt?.toISOString() ?? 'never'}`);
  }
}

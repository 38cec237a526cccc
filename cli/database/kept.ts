/**
 * private.setup_secrets: what setup finds again on any machine (the signing key of unsubscribe links,
 * the login roles' passwords, the origins it allowed), readable by the owner's database role alone.
 */
import type { Queryable } from '../connect/queries.ts';

type KeptName = 'unsubscribe_secret' | 'waitlist_unsubscribe' | 'waitlist_health' | 'site_origins';

export const kept = async (db: Queryable, name: KeptName): Promise<string | undefined> =>
  (await db.query<{ value: string }>('select value from private.setup_secrets where name = $1', [name])).rows[0]?.value;

export async function keep(db: Queryable, name: KeptName, value: string) {
  await db.query(
    `insert into private.setup_secrets (name, value) values ($1, $2)
     on conflict (name) do update set value = excluded.value, changed_at = now()`,
    [name, value],
  );
}

import { loadSupabase } from '../../../lib/load-supabase';

/** What an insert into the waiting list came to, read from the error code alone (docs/product.md §7). */
export type JoinOutcome = 'added' | 'already-registered' | 'failed';

const UNIQUE_VIOLATION = '23505';

export function outcomeOf(error: { message: string; code?: string } | null): JoinOutcome {
  if (!error) return 'added';
  return error.code === UNIQUE_VIOLATION ? 'already-registered' : 'failed';
}

/**
 * Inserts the address with the public key. No `.select()`: the public may write the
 * list but never read it. Any error but a duplicate is thrown, for the caller to log and report.
 * If supabase-js cannot be fetched, `resendByReload` may reload the page to send the address
 * (it resolves to true then): the insert never settles, and no 'Error' shows before the page goes.
 */
export async function insertEmail(
  email: string,
  resendByReload: (email: string) => Promise<boolean> = () => Promise.resolve(false),
): Promise<Exclude<JoinOutcome, 'failed'>> {
  const { supabase } = await loadSupabase().catch(async (error: unknown) => {
    if (await resendByReload(email)) return new Promise<never>(() => {});
    throw error;
  });
  const { error } = await supabase.from('waiting_list').insert({ email });
  const outcome = outcomeOf(error);
  if (outcome === 'failed') throw error;
  return outcome;
}

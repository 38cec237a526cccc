import { resendByReload } from '../early-submit/early-submit';

/** What an insert into the waiting list came to, read from the error code alone (docs/product.md §7). */
export type JoinOutcome = 'added' | 'already-registered' | 'failed';

const UNIQUE_VIOLATION = '23505';

export function outcomeOf(error: { message: string; code?: string } | null): JoinOutcome {
  if (!error) return 'added';
  return error.code === UNIQUE_VIOLATION ? 'already-registered' : 'failed';
}

/** The Supabase client is loaded on demand, keeping it off the first paint. */
export const loadSupabase = () => import('../../../lib/supabase');

/**
 * Inserts the address with the public key. No `.select()`: the public may write the
 * list but never read it. Any error but a duplicate is thrown, for the caller to log and report.
 * If supabase-js cannot be fetched, the page may reload to send the address (reload-carrying.ts):
 * then the insert never settles, and no 'Error' shows before the page goes.
 */
export async function insertEmail(email: string): Promise<Exclude<JoinOutcome, 'failed'>> {
  const { supabase } = await loadSupabase().catch(async (error: unknown) => {
    if (await resendByReload(email)) return new Promise<never>(() => {});
    throw error;
  });
  const { error } = await supabase.from('waiting_list').insert({ email });
  const outcome = outcomeOf(error);
  if (outcome === 'failed') throw error;
  return outcome;
}

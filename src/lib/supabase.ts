import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { backendKey, backendUrl } from './env';

if (!backendUrl || !backendKey) {
  throw new Error('Supabase is not configured: set VITE_SUPABASE_URL and VITE_SUPABASE_PUBLISHABLE_KEY.');
}

/** Anonymous visitors only: no session to keep, refresh or find in the URL. */
export const supabase = createClient<Database>(backendUrl, backendKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

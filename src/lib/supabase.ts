import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { apiMocking, backendUrl, MOCK_SUPABASE_KEY, supabaseKey } from './env';

const mocking = import.meta.env.DEV && apiMocking;
const key = mocking ? MOCK_SUPABASE_KEY : supabaseKey;
if (!backendUrl || !key) {
  throw new Error('Supabase is not configured: set VITE_SUPABASE_URL and VITE_SUPABASE_PUBLISHABLE_KEY.');
}

/** Anonymous visitors only: no session to keep, refresh or find in the URL. */
export const supabase = createClient<Database>(backendUrl, key, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

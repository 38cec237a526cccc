import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { apiMocking, MOCK_SUPABASE_KEY, MOCK_SUPABASE_URL, supabaseKey, supabaseUrl } from './env';

const mocking = import.meta.env.DEV && apiMocking;
const url = mocking ? MOCK_SUPABASE_URL : supabaseUrl;
const key = mocking ? MOCK_SUPABASE_KEY : supabaseKey;
if (!url || !key) {
  throw new Error('Supabase is not configured: set VITE_SUPABASE_URL and VITE_SUPABASE_PUBLISHABLE_KEY.');
}

/** Anonymous visitors only: no session to keep, refresh or find in the URL. */
export const supabase = createClient<Database>(url, key, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

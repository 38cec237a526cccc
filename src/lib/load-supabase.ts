/** The Supabase client, loaded on demand: it stays off the first paint. */
export const loadSupabase = () => import('./supabase');

/** The (fake) Supabase origin the production build is tested against, intercepted in the tests. */
export const E2E_SUPABASE_URL = 'https://waitlist-e2e.supabase.co';

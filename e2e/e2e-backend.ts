/**
 * The fake Supabase origin the production build is tested against: a reserved name (.invalid) that
 * no DNS resolves, answered by the mock in the tests.
 */
export const E2E_SUPABASE_URL = 'https://waitlist-e2e.invalid';

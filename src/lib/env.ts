/** Every environment variable the app reads, in one place (see .env.example). */
const env = import.meta.env;

export const supabaseUrl: string | undefined = env.VITE_SUPABASE_URL || undefined;

/** The public (publishable) key; VITE_SUPABASE_ANON_KEY is its older name. */
export const supabaseKey: string | undefined =
  env.VITE_SUPABASE_PUBLISHABLE_KEY || env.VITE_SUPABASE_ANON_KEY || undefined;

/**
 * Development only: mocking is on when no Supabase is configured, and VITE_API_MOCKING=on|off
 * forces it. A production build never mocks, so none of MSW reaches the bundle.
 */
export const apiMocking: boolean =
  import.meta.env.DEV &&
  (env.VITE_API_MOCKING === 'on' || (env.VITE_API_MOCKING !== 'off' && !supabaseUrl));

/** Where the mock backend pretends Supabase lives. */
export const MOCK_SUPABASE_URL = 'http://127.0.0.1:54321';
export const MOCK_SUPABASE_KEY = 'mock-publishable-key';

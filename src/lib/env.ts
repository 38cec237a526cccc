/** Every environment variable the app reads, in one place (see .env.example). */
export const supabaseUrl: string | undefined = import.meta.env.VITE_SUPABASE_URL || undefined;

/** The public (publishable) key; VITE_SUPABASE_ANON_KEY is its older name. */
export const supabaseKey: string | undefined =
  import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY || import.meta.env.VITE_SUPABASE_ANON_KEY || undefined;

/**
 * Development only: mocking is on when no Supabase is configured, and VITE_API_MOCKING=on|off
 * forces it. Read it behind `import.meta.env.DEV` so a production build drops the mock entirely.
 */
export const apiMocking: boolean =
  import.meta.env.VITE_API_MOCKING === 'on' || (import.meta.env.VITE_API_MOCKING !== 'off' && !supabaseUrl);

/** Where the mock backend pretends Supabase lives. */
export const MOCK_SUPABASE_URL = 'http://127.0.0.1:54321';
export const MOCK_SUPABASE_KEY = 'mock-publishable-key';

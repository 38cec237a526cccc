/** Every environment variable the app reads, in one place (see .env.example); the rules are env-rules.ts's. */
import { publishableKeyOf } from '../../contracts/publishable-key.ts';
import { mockingOf, supabaseUrlOf, type SiteVars } from './env-rules';

// Named one by one: Vite replaces each import.meta.env.VITE_* by its value in the bundle.
const vars: SiteVars = {
  VITE_SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL,
  VITE_SUPABASE_PUBLISHABLE_KEY: import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY,
  VITE_SUPABASE_ANON_KEY: import.meta.env.VITE_SUPABASE_ANON_KEY,
  VITE_API_MOCKING: import.meta.env.VITE_API_MOCKING,
};

export const supabaseUrl = supabaseUrlOf(vars);
export const supabaseKey = publishableKeyOf(vars);

/** Read it behind `import.meta.env.DEV` so a production build drops the mock entirely. */
export const apiMocking = mockingOf(vars);

/** Where the mock backend pretends Supabase lives. */
export const MOCK_SUPABASE_URL = 'http://127.0.0.1:54321';
export const MOCK_SUPABASE_KEY = 'mock-publishable-key';

/** The Supabase the page talks to, and its key: the mock's on the dev server when mocking, else the configured one. */
const mocking = import.meta.env.DEV && apiMocking;
export const backendUrl = mocking ? MOCK_SUPABASE_URL : supabaseUrl;
export const backendKey = mocking ? MOCK_SUPABASE_KEY : supabaseKey;

/**
 * The dev server's app, in place of each page's own script (vite/inline-page-scripts.ts): the
 * whole page rendered by React, with the router and the mock backend. A production build never
 * loads it: the pages are prerendered and only the form is hydrated (src/first-script.ts,
 * src/islands/waitlist.tsx).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import { apiMocking, supabaseUrl } from './lib/env';
import './styles.css';

const RESET_MOCK = 'reset-mock';

/** Start the mock backend before the app can make a call. */
async function startBackend() {
  if (!apiMocking) {
    console.info(`Backend: Supabase at ${supabaseUrl}`);
    return;
  }
  const [{ worker }, { resetMockBackend }] = await Promise.all([
    import('../mocks/browser'),
    import('../mocks/handlers'),
  ]);
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  // One click on the link below (in the console) empties the mock list back to its seed.
  const url = new URL(location.href);
  if (url.searchParams.has(RESET_MOCK)) {
    resetMockBackend();
    url.searchParams.delete(RESET_MOCK);
    history.replaceState(history.state, '', url);
    console.info('Mock list reset to its seed (taken@example.com).');
  }
  console.info(
    `Backend: mock (MSW). Magic addresses are listed in the README. Empty the mock list: ${location.origin}/?${RESET_MOCK}`,
  );
}

await startBackend();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);

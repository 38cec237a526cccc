import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App, pageFor } from './app/app';
import { apiMocking, supabaseUrl } from './lib/env';
import './styles.css';

const RESET_MOCK = 'reset-mock';

/** Development only: start the mock backend before the app can make a call. */
async function startBackend() {
  if (!import.meta.env.DEV) return;
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

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

// The build prerenders each page into the HTML (data-page names it). Hydrate when the HTML
// holds the page this path shows; otherwise (dev server, a host's fallback) render afresh.
if (container.dataset.page && container.dataset.page === pageFor(location.pathname)) {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';
import { apiMocking, supabaseUrl } from './lib/env';
import './styles.css';

/** Development only: start the mock backend before the app can make a call. */
async function startBackend() {
  if (!import.meta.env.DEV) return;
  if (!apiMocking) {
    console.info(`Backend: Supabase at ${supabaseUrl}`);
    return;
  }
  const { worker } = await import('../mocks/browser');
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  console.info('Backend: mock (MSW). Magic addresses are listed in the README.');
}

await startBackend();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);

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
import { startBackend } from './dev/mock-backend';
import { MockNotice } from './dev/mock-notice';
import './styles.css';

// The page renders whatever happens to the mock: if it cannot start, the page says so.
const mockProblem = await startBackend();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
    {mockProblem !== undefined && <MockNotice reason={mockProblem} />}
  </StrictMode>,
);

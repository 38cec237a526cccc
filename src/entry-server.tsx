import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App, pageFor } from './app/app';
// The server bundle's stylesheet is the page's: the styles of everything it prerenders.
import './styles.css';

/** Renders a path to HTML at build time, waiting for every lazy part (vite/prerender.ts). */
export async function render(path: string) {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
  return { page: pageFor(path), html: await new Response(prelude).text() };
}

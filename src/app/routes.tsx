import type { RouteObject } from 'react-router';
import { LandingPage } from '../pages/landing-page';
import { NotFoundPage } from '../pages/not-found-page';
import { UnsubscribePage } from '../pages/unsubscribe-page';

/**
 * The routes of docs/product.md §2, and /unsubscribe (its decisions). Each id names the page a
 * prerendered HTML file holds.
 */
export const routes = [
  { id: 'landing', path: '/', element: <LandingPage /> },
  { id: 'unsubscribe', path: '/unsubscribe', element: <UnsubscribePage /> },
  { id: 'not-found', path: '*', element: <NotFoundPage /> },
] satisfies RouteObject[];

import type { RouteObject } from 'react-router';
import { LandingPage } from '../pages/landing-page';
import { NotFoundPage } from '../pages/not-found-page';

/** The routes of docs/product.md §2. Each id names the page a prerendered HTML file holds. */
export const routes = [
  { id: 'landing', path: '/', element: <LandingPage /> },
  { id: 'not-found', path: '*', element: <NotFoundPage /> },
] satisfies RouteObject[];

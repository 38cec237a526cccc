import { matchRoutes, useRoutes } from 'react-router';
import { routes } from './routes';

/** The router itself is the caller's: the browser's, or a static one when prerendering. */
export function App() {
  return useRoutes(routes);
}

/** The id of the page that a path shows. */
export const pageFor = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.route.id;

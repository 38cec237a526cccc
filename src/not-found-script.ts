/**
 * The one script of 404.html, a few hundred bytes: the prerendered not-found page needs no
 * framework ('Return to Home' is a plain link); it only writes the missing path to the console.
 */
import { logMissingPath } from './pages/missing-path';

logMissingPath(location.pathname);

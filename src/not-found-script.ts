/**
 * The one script of 404.html, inlined by the build, a few dozen bytes: the prerendered
 * not-found page needs no framework ('Return to Home' is a plain link); it only writes the
 * missing path to the console.
 */
import { logMissingPath } from './pages/missing-path';

logMissingPath(location.pathname);

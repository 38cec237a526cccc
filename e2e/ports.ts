/**
 * The test servers' ports: their own, never reused, so the tests never run against a
 * developer's `npm run dev`, which may be talking to a real Supabase project.
 * E2E_PORT_OFFSET moves them all (for a second checkout while another run holds these).
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const DEV_PORT = 5273 + offset;
/** The build on Cloudflare Pages' runtime; its devtools inspector on a port of its own. */
export const BUILD_PORT = 4273 + offset;
/** The e2e build's VITE_SITE_URL: plain http on loopback, a build for local use (its CSP says so). */
export const E2E_SITE_URL = `http://127.0.0.1:${BUILD_PORT}`;
export const INSPECTOR_PORT = 9230 + offset;
/** nginx: the site on plain HTTP, then the production shape: port 80's role and port 443's. */
export const NGINX_PORT = 4274 + offset;
export const NGINX_HTTP_PORT = 4275 + offset;
export const NGINX_TLS_PORT = 4276 + offset;
/** The name the nginx test servers are configured for (a reserved name no DNS resolves). */
export const NGINX_SERVER_NAME = 'coming-soon.test';

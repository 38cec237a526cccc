/**
 * `npm run preview`: dist/ on Cloudflare Pages' own runtime (wrangler pages dev), headers and 404
 * included, at 127.0.0.1:4173. A deployed build (its CSP has upgrade-insecure-requests: see
 * docs/architecture.md, "Content-Security-Policy and headers") is served over https (wrangler's
 * self-signed certificate; accept it once), so it works in every engine as it ships. A build for
 * local use (a plain-http site or Supabase, vite/security-headers.ts) is served over http.
 * Usage: npm run preview [-- other wrangler pages dev options]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { quietWrangler } from './wrangler-env.ts';

const headers = 'dist/_headers';
if (!existsSync(headers)) {
  console.error(`${headers} is missing: build first (npm run build).`);
  process.exit(1);
}
const deployed = readFileSync(headers, 'utf8').includes('upgrade-insecure-requests');
const protocol = deployed ? 'https' : 'http';
console.log(
  deployed
    ? 'A deployed build (its CSP upgrades http to https): serving it over https, with a self-signed certificate.'
    : 'A build for local use (no upgrade to https in its CSP): serving it over http.',
);
console.log(`Open ${protocol}://127.0.0.1:4173`);
const args = ['pages', 'dev', 'dist', '--ip', '127.0.0.1', '--port', '4173', '--local-protocol', protocol];
const result = spawnSync('wrangler', [...args, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...quietWrangler },
});
process.exit(result.status ?? 1);

/**
 * The production build: the client bundle, then every page prerendered into its HTML file
 * (index.html for /, 404.html for hosts that serve one), then the `_headers` file with the
 * Content-Security-Policy for the configured Supabase origin.
 * Usage: tsx scripts/build.ts [--outDir dist]
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { build, loadEnv } from 'vite';
import { renderHeadersFile } from './security-headers.ts';

const { values } = parseArgs({ options: { outDir: { type: 'string', default: 'dist' } } });
const outDir = resolve(values.outDir);

const env = loadEnv('production', process.cwd(), 'VITE_');
if (!env.VITE_SUPABASE_URL || !(env.VITE_SUPABASE_PUBLISHABLE_KEY || env.VITE_SUPABASE_ANON_KEY)) {
  console.error(
    'A production build talks to a real Supabase project: set VITE_SUPABASE_URL and ' +
      'VITE_SUPABASE_PUBLISHABLE_KEY (in .env.local or the environment; see .env.example).',
  );
  process.exit(1);
}

await build({ build: { outDir, emptyOutDir: true } });

// Inside the project, so the server bundle resolves its packages from node_modules.
const ssrDir = resolve('build/prerender');
try {
  await build({ logLevel: 'warn', build: { ssr: 'src/entry-server.tsx', outDir: ssrDir } });
  type Render = (path: string) => Promise<{ page?: string; html: string }>;
  const { render } = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as { render: Render };
  const template = readFileSync(join(outDir, 'index.html'), 'utf8');
  for (const [file, path] of [['index.html', '/'], ['404.html', '/404']]) {
    const { page, html } = await render(path);
    const root = `<div id="root" data-page="${page}">${html}</div>`;
    writeFileSync(join(outDir, file), template.replace('<div id="root"></div>', root));
    console.log(`prerendered ${path} (${page}) → ${file}`);
  }
} finally {
  rmSync(ssrDir, { recursive: true, force: true });
}

writeFileSync(join(outDir, '_headers'), renderHeadersFile(env.VITE_SUPABASE_URL));
console.log(`_headers: connect-src allows ${new URL(env.VITE_SUPABASE_URL).origin}`);

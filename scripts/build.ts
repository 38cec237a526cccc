/**
 * The production build: the client bundle (its one entry, src/first-script.ts, starts the rest
 * after the first paint); its stylesheet inlined into the HTML (no render-blocking request);
 * every page prerendered into its HTML file (index.html for /,
 * 404.html for hosts that serve one); the `_headers` file with the Content-Security-Policy
 * for the configured Supabase origin and the inlined styles' hashes.
 * Usage: tsx scripts/build.ts [--outDir dist]
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build, loadEnv } from 'vite';
import { inlineStylesheets, inlineSvgFavicon } from './build-html.ts';
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

if (env.VITE_SITE_URL === 'https://example.com') {
  console.warn('VITE_SITE_URL is the placeholder https://example.com: set the site\'s address for its canonical link and social cards.');
}

await build({ build: { outDir, emptyOutDir: true } });

const inlined = inlineStylesheets(readFileSync(join(outDir, 'index.html'), 'utf8'), outDir);
const { styles } = inlined;
const template = inlineSvgFavicon(inlined.html, outDir);

const pages = [
  { file: 'index.html', path: '/', head: (html: string) => html },
  {
    file: '404.html',
    path: '/404',
    head: (html: string) =>
      html
        .replace(/<title>[^<]*<\/title>/, '<title>Page not found</title>\n    <meta name="robots" content="noindex" />')
        .replace(/\s*<link rel="canonical"[^>]*>/, ''),
  },
];

// Inside the project, so the server bundle resolves its packages from node_modules.
const ssrDir = resolve('build/prerender');
try {
  await build({ logLevel: 'warn', build: { ssr: 'src/entry-server.tsx', outDir: ssrDir } });
  type Render = (path: string) => Promise<{ page?: string; html: string }>;
  const { render } = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as { render: Render };
  for (const { file, path, head } of pages) {
    const { page, html } = await render(path);
    const root = `<div id="root" data-page="${page}">${html}</div>`;
    writeFileSync(join(outDir, file), head(template).replace('<div id="root"></div>', root));
    console.log(`prerendered ${path} (${page}) → ${file}`);
  }
} finally {
  rmSync(ssrDir, { recursive: true, force: true });
}

writeFileSync(join(outDir, '_headers'), renderHeadersFile(env.VITE_SUPABASE_URL, { styles }));
console.log(`_headers: connect-src allows ${new URL(env.VITE_SUPABASE_URL).origin}; ${styles.length} inlined stylesheet(s) allowed by hash`);

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexHtmlTransformContext, ResolvedConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { prerender, prerenderApi, type Page } from './prerender';

/** The site's pages, and one more at /about that no route claims (the catch-all would show it). */
const withAbout: Record<string, Page> = {
  'index.html': { path: '/', route: 'landing' },
  '404.html': { path: '/404', route: 'not-found' },
  'about.html': { path: '/about', route: 'about' },
};

/** The server bundle's answer, with the site's routes (src/app/routes.tsx): `/`, and the catch-all. */
const render = async (path: string) => ({ page: path === '/' ? 'landing' : 'not-found', html: '' });

/** The plugin's transformIndexHtml for one page of `pages`. */
function buildPage(pages: Record<string, Page>, file: string) {
  const plugin = prerender(pages);
  prerenderApi({ plugins: [plugin] } as unknown as ResolvedConfig).render = render;
  const { handler } = plugin.transformIndexHtml as {
    handler: (html: string, context: Partial<IndexHtmlTransformContext>) => Promise<unknown>;
  };
  return handler('', { path: `/${file}` });
}

describe('an HTML page without a route fails the build', () => {
  it('each page shows its own route: the landing page and the not-found page build', async () => {
    await expect(buildPage(withAbout, 'index.html')).resolves.toBeDefined();
    await expect(buildPage(withAbout, '404.html')).resolves.toBeDefined();
  });

  it('a page whose path no route claims (the catch-all would show the 404 page) fails', async () => {
    await expect(buildPage(withAbout, 'about.html')).rejects.toThrow(
      'prerender: /about.html renders /about, which shows the route "not-found", not its own "about"',
    );
  });

  it('an HTML file at the root that is no page fails', () => {
    const root = mkdtempSync(join(tmpdir(), 'prerender-test-'));
    for (const file of ['index.html', '404.html', 'about.html']) writeFileSync(join(root, file), '');
    const { configResolved } = prerender() as { configResolved: (config: Partial<ResolvedConfig>) => void };
    try {
      expect(() => configResolved({ root, command: 'build' })).toThrow(
        'prerender: about.html at the root has no page in vite/prerender.ts (pages)',
      );
      expect(() => configResolved({ root, command: 'serve' })).not.toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/**
 * Keeps the first paint free of extra round trips: the one stylesheet is inlined as <style>
 * (and its file dropped), the SVG favicon becomes a data: URL. The .ico fallback stays a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { attribute, editHtml } from './html-edit.ts';
import { prerenderedCss } from './prerender.ts';

export function inlineFirstLoad(): Plugin {
  let publicDir = 'public';
  const inlined = new Set<string>();
  return {
    name: 'inline-first-load',
    apply: 'build',
    enforce: 'post',
    configResolved: (config) => void (publicDir = config.publicDir),
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return editHtml(html, (element) => {
          if (element.tagName !== 'link') return undefined;
          const href = attribute(element, 'href') ?? '';
          if (attribute(element, 'rel') === 'stylesheet') {
            // The client's CSS (the island's) is part of the prerendered pages' stylesheet.
            const file = href.replace(/^\//, '');
            if (bundle?.[file]?.type !== 'asset') throw new Error(`inline-first-load: ${href} is not in the bundle`);
            if (!prerenderedCss.text)
              throw new Error('inline-first-load: no prerendered stylesheet (vite/prerender.ts)');
            inlined.add(file);
            return { element: `<style>${prerenderedCss.text}</style>` };
          }
          if (attribute(element, 'rel') === 'icon' && href.endsWith('.svg')) {
            const svg = readFileSync(join(publicDir, href), 'utf8')
              .trim()
              .split(/\s*\n\s*/)
              .join(' ');
            return { attribute: 'href', value: `data:image/svg+xml,${encodeURIComponent(svg).replaceAll('%20', ' ')}` };
          }
          return undefined;
        });
      },
    },
    // Inlined into every page that used it: nothing links to the file any more.
    generateBundle(_options, bundle) {
      for (const file of inlined) delete bundle[file];
    },
  };
}

/**
 * Keeps the first paint free of extra round trips: the one stylesheet is inlined as <style>
 * (and its file dropped), the SVG favicon becomes a data: URL. The .ico fallback stays a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { missingRules } from './css-rules.ts';
import { attribute, editHtml } from './html-edit.ts';
import { prerenderApi, type PrerenderApi } from './prerender.ts';

export function inlineFirstLoad(): Plugin {
  let publicDir = 'public';
  let base = '/';
  let prerendered: PrerenderApi = {};
  const inlined = new Set<string>();
  return {
    name: 'inline-first-load',
    apply: 'build',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(config) {
      publicDir = config.publicDir;
      base = config.base;
      prerendered = prerenderApi(config);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return editHtml(html, (element) => {
          if (element.tagName !== 'link') return undefined;
          const href = attribute(element, 'href') ?? '';
          const file = href.startsWith(base) ? href.slice(base.length) : href;
          if (attribute(element, 'rel') === 'stylesheet') {
            // The prerendered pages' stylesheet holds the client's CSS (the island's): checked.
            const asset = bundle?.[file];
            if (asset?.type !== 'asset') throw new Error(`inline-first-load: ${file} is not in the bundle`);
            if (!prerendered.css) throw new Error('inline-first-load: no prerendered stylesheet (vite/prerender.ts)');
            const missing = missingRules(String(asset.source), prerendered.css);
            if (missing.length) {
              throw new Error(
                `inline-first-load: the inlined stylesheet lacks rules of ${file}:\n  ${missing.join('\n  ')}`,
              );
            }
            inlined.add(file);
            return { element: `<style>${prerendered.css}</style>` };
          }
          if (attribute(element, 'rel') === 'icon' && file.endsWith('.svg')) {
            const svg = readFileSync(join(publicDir, file), 'utf8')
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

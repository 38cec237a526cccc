/**
 * Each page's one script is inlined into its HTML, so nothing stands between the HTML and the
 * first paint, and the landing page's form answers as soon as the HTML is parsed
 * (docs/architecture.md). The CSP allows each inline script by its hash (security-headers.ts).
 *
 * A page names its script as usual (`<script type="module" src="/src/first-script.ts">`). The
 * build bundles it on its own, with everything it imports statically; what it imports
 * dynamically (the form's island, supabase-js) is emitted as a chunk of the client build and
 * imported by its final URL. The script shares no module with the chunks it loads: what they
 * must share goes through the DOM (src/features/waitlist/early-submit/early-submit.ts).
 *
 * The dev server renders pages with the app instead: there the page's script is src/main.tsx.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { attribute, editHtml, elements, type Element } from './html-edit.ts';
import { bundlePageScript, DYNAMIC, type PageScript } from './page-script-bundle.ts';

/** Where a page script goes, out of Vite's sight until the page is written (Vite would bundle it as a file). */
const PLACEHOLDER = 'page-script';

const pageScript = (element: Element) => {
  const src = attribute(element, 'src');
  return element.tagName === 'script' && src ? src : undefined;
};

/** On the dev server, every page runs the whole app. */
const devApp: Plugin = {
  name: 'page-scripts-dev-app',
  apply: 'serve',
  transformIndexHtml: {
    order: 'pre',
    handler: (html) =>
      editHtml(html, (element) =>
        pageScript(element) ? { element: '<script type="module" src="/src/main.tsx"></script>' } : undefined,
      ),
  },
};

function inlineForBuild(): Plugin[] {
  let config: ResolvedConfig;
  const scripts = new Map<string, PageScript>();
  const bundle: Plugin = {
    name: 'inline-page-scripts',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved: (resolved) => {
      config = resolved;
    },
    /** Bundles the script of every HTML entry, and makes what each loads a chunk of the client build. */
    async buildStart() {
      const input = this.environment.config.build.rolldownOptions.input;
      const pages = (Array.isArray(input) ? input : Object.values(input ?? {})).filter((file) =>
        file.endsWith('.html'),
      );
      scripts.clear();
      for (const page of pages) {
        for (const element of elements(readFileSync(resolve(config.root, page), 'utf8'))) {
          const src = pageScript(element);
          if (!src || scripts.has(src)) continue;
          if (attribute(element, 'type') !== 'module') throw new Error(`inline-page-scripts: ${src} is not a module`);
          const script = await bundlePageScript(config, src);
          for (const id of script.chunks) this.emitFile({ type: 'chunk', id, preserveSignature: 'strict' });
          scripts.set(src, script);
        }
      }
    },
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        editHtml(html, (element) => {
          const src = pageScript(element);
          return src ? { element: `<script type="${PLACEHOLDER}" data-src="${src}"></script>` } : undefined;
        }),
    },
  };
  /** Once the client's chunks are written: each placeholder becomes its script, importing them by URL. */
  const place: Plugin = {
    name: 'inline-page-scripts-place',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) =>
        editHtml(html, (element) => {
          if (element.tagName !== 'script' || attribute(element, 'type') !== PLACEHOLDER) return undefined;
          const src = attribute(element, 'data-src')!;
          const script = scripts.get(src);
          if (!script) throw new Error(`inline-page-scripts: ${src} was not bundled (not in an HTML entry?)`);
          const chunkUrl = (id: string) => {
            const chunk = Object.values(bundle ?? {}).find(
              (file) => file.type === 'chunk' && file.facadeModuleId === id,
            );
            if (!chunk) throw new Error(`inline-page-scripts: no chunk for ${id}`);
            return config.base + chunk.fileName;
          };
          const code = script.chunks.reduce((text, id) => text.replaceAll(DYNAMIC + id, chunkUrl(id)), script.code);
          return { element: `<script type="module">${code}</script>` };
        }),
    },
  };
  return [bundle, place];
}

export const inlinePageScripts = (): Plugin[] => [devApp, ...inlineForBuild()];

/**
 * Each page's one script is inlined into its HTML, so nothing stands between the HTML and the
 * first paint, and the landing page's form answers as soon as the HTML is parsed (README, "A lean
 * first load"). The CSP allows each inline script by its hash (security-headers.ts).
 *
 * A page names its script as usual (`<script type="module" src="/src/first-script.ts">`). The
 * build bundles it on its own, with everything it imports statically; what it imports
 * dynamically (the form's island, supabase-js) is emitted as a chunk of the client build and
 * imported by its final URL. The script shares no module with the chunks it loads: what they
 * must share goes through the DOM (src/features/waitlist/early-submit.ts).
 *
 * The dev server renders pages with the app instead: there the page's script is src/main.tsx.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';
import { attribute, editHtml, elements } from './html-edit.ts';

/** How a dynamic import of `module` appears in a bundled page script until the client's chunk is known. */
const DYNAMIC = 'page-script-chunk:';
const marker = (index: number) => `<!--page-script-${index}-->`;

type PageScript = { source: string; code: string; chunks: string[] };

/** Bundles one page script (`src` as the HTML names it) into one module; its dynamic imports stay imports, marked. */
async function bundle(root: string, source: string): Promise<PageScript> {
  const chunks = new Set<string>();
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [
      {
        name: 'page-script-dynamic-imports',
        async resolveDynamicImport(specifier, importer) {
          const resolved = typeof specifier === 'string' ? await this.resolve(specifier, importer) : null;
          if (!resolved)
            throw new Error(`inline-page-scripts: cannot resolve import(${String(specifier)}) in ${importer}`);
          chunks.add(resolved.id);
          return { id: DYNAMIC + resolved.id, external: true };
        },
      },
    ],
    build: {
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: false,
      rolldownOptions: { input: resolve(root, source.replace(/^\//, '')), output: { codeSplitting: false } },
    },
  });
  const [entry, ...rest] = [result as Rolldown.RolldownOutput | Rolldown.RolldownOutput[]]
    .flat()
    .flatMap(({ output }) => output);
  if (entry?.type !== 'chunk' || rest.length > 0) throw new Error(`inline-page-scripts: ${source} is not one module`);
  // Inside <script>, these would end the element or change how the HTML parser reads it.
  if (/<\/script|<!--|<script/i.test(entry.code)) throw new Error(`inline-page-scripts: ${source} holds HTML markup`);
  return { source, code: entry.code.trim(), chunks: [...chunks] };
}

export function inlinePageScripts(): Plugin {
  let root = process.cwd();
  let command: 'build' | 'serve' = 'build';
  const scripts: PageScript[] = [];
  return {
    name: 'inline-page-scripts',
    configResolved(config) {
      root = config.root;
      command = config.command;
    },
    /** Bundles the script of every HTML entry, and makes what each loads a chunk of the client build. */
    async buildStart() {
      if (this.environment.name !== 'client' || command !== 'build') return;
      const input = this.environment.config.build.rolldownOptions.input;
      const pages = (Array.isArray(input) ? input : Object.values(input ?? {})).filter((file) =>
        file.endsWith('.html'),
      );
      scripts.length = 0;
      for (const page of pages) {
        for (const element of elements(readFileSync(resolve(root, page), 'utf8'))) {
          const src = attribute(element, 'src');
          if (element.tagName !== 'script' || !src) continue;
          if (attribute(element, 'type') !== 'module') throw new Error(`inline-page-scripts: ${src} is not a module`);
          if (scripts.some((script) => script.source === src)) continue;
          const script = await bundle(root, src);
          for (const id of script.chunks) this.emitFile({ type: 'chunk', id, preserveSignature: 'strict' });
          scripts.push(script);
        }
      }
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        return editHtml(html, (element) => {
          const src = attribute(element, 'src');
          if (element.tagName !== 'script' || !src) return undefined;
          if (command === 'serve') return { element: '<script type="module" src="/src/main.tsx"></script>' };
          // Out of Vite's sight until the bundle is written: it would make the script a file again.
          const index = scripts.findIndex((script) => script.source === src);
          if (index < 0) throw new Error(`inline-page-scripts: ${src} was not bundled (not in an HTML entry?)`);
          return { element: marker(index) };
        });
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, output) {
        const chunkUrl = (id: string) => {
          const chunk = Object.values(output).find((file) => file.type === 'chunk' && file.facadeModuleId === id);
          if (!chunk) throw new Error(`inline-page-scripts: no chunk for ${id}`);
          return `/${chunk.fileName}`;
        };
        for (const file of Object.values(output)) {
          if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue;
          file.source = scripts.reduce((html, script, index) => {
            const code = script.chunks.reduce((text, id) => text.replaceAll(DYNAMIC + id, chunkUrl(id)), script.code);
            return html.replace(marker(index), () => `<script type="module">${code}</script>`);
          }, String(file.source));
        }
      },
    },
  };
}

/**
 * Prerendering, as one `vite build`: the server bundle (src/entry-server.tsx, Vite's `ssr`
 * environment) is built first, then the client; while the client's HTML is written, each page
 * is rendered into its `<div id="root">`. index.html holds /, 404.html the not-found page
 * (hosts serve it, with status 404, for unknown paths). The dev server gets an empty root.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HtmlTagDescriptor, Plugin, ResolvedConfig, Rolldown } from 'vite';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids.ts';
import { messages } from '../src/features/waitlist/messages.ts';

type Render = (path: string) => Promise<{ page?: string; html: string }>;

/**
 * What this plugin holds for the client build, read through `api`. Each environment resolves
 * its own config, plugins included: buildApp hands the server build to the client's instance.
 */
export type PrerenderApi = {
  render?: Render;
  /** The server bundle's CSS: the styles of every component the pages are rendered with (inline-first-load.ts). */
  css?: string;
};

export const prerenderApi = (config: ResolvedConfig) =>
  config.plugins.find((plugin) => plugin.name === 'prerender')?.api as PrerenderApi;

/** Each HTML entry and the path it prerenders. */
const pages: Record<string, string> = { 'index.html': '/', '404.html': '/404' };
const SERVER_OUT_DIR = 'build/prerender';

/**
 * The 'Error' message for when the form's code itself cannot be fetched (so no toast can be
 * shown): plain HTML outside the app, revealed by early-submit.ts. Text from the toast catalogue.
 */
const loadFailure: HtmlTagDescriptor = {
  tag: 'div',
  attrs: { id: LOAD_FAILURE_ID, class: 'load-failure', role: 'alert', hidden: true },
  children: [
    { tag: 'strong', children: messages.failed.title },
    { tag: 'span', children: messages.failed.description },
  ],
  injectTo: 'body',
};

export function prerender(): Plugin {
  let root = process.cwd();
  const api: PrerenderApi = {};
  return {
    name: 'prerender',
    api,
    config: (config) => ({
      // Builds every environment (the app builder), in the order buildApp gives.
      builder: {},
      environments: {
        client: { build: { rolldownOptions: { input: Object.keys(pages) } } },
        ssr: {
          build: {
            outDir: config.environments?.ssr?.build?.outDir ?? SERVER_OUT_DIR,
            emptyOutDir: true,
            emitAssets: true,
            cssCodeSplit: false,
            rolldownOptions: { input: 'src/entry-server.tsx' },
          },
        },
      },
    }),
    configResolved: (config) => void (root = config.root),
    async buildApp(builder) {
      const serverOutDir = resolve(root, builder.environments.ssr.config.build.outDir);
      try {
        const output = (await builder.build(builder.environments.ssr)) as Rolldown.RolldownOutput;
        const files = output.output;
        const client = prerenderApi(builder.environments.client.config);
        client.css = files
          .flatMap((file) =>
            file.type === 'asset' && file.fileName.endsWith('.css') ? [String(file.source).trim()] : [],
          )
          .join('\n');
        // Written to disk to be imported: it imports its dependencies from node_modules.
        const entry = files.find((file) => file.type === 'chunk' && file.isEntry);
        if (!entry) throw new Error('prerender: the server build has no entry chunk');
        ({ render: client.render } = (await import(pathToFileURL(join(serverOutDir, entry.fileName)).href)) as {
          render: Render;
        });
        await builder.build(builder.environments.client);
      } finally {
        rmSync(serverOutDir, { recursive: true, force: true });
      }
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(_html, { path, server }) {
        if (server) return [{ tag: 'div', attrs: { id: 'root' }, injectTo: 'body-prepend' }];
        const page = pages[path.replace(/^\//, '')];
        if (page === undefined) throw new Error(`prerender: ${path} is not a page (vite/prerender.ts, pages)`);
        if (!api.render) throw new Error('prerender: no server build (run `vite build`)');
        const { html } = await api.render(page);
        return [
          { tag: 'div', attrs: { id: 'root' }, children: html, injectTo: 'body-prepend' },
          ...(page === '/' ? [loadFailure] : []),
        ];
      },
    },
  };
}

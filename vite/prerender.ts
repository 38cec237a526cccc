/**
 * Prerendering, as one `vite build`: the server bundle (src/entry-server.tsx, Vite's `ssr`
 * environment) is built first, then the client; while the client's HTML is written, each page
 * is rendered into its `<div id="root">`. index.html holds /, 404.html the not-found page (hosts
 * serve it, with status 404, for unknown paths), unsubscribe.html /unsubscribe. An HTML file at the
 * root that is not a page, or a page whose path shows another route, fails the build. The dev
 * server gets an empty root.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HtmlTagDescriptor, Plugin, ResolvedConfig, Rolldown } from 'vite';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids.ts';
import { messages } from '../src/features/waitlist/texts/messages.ts';

/** A path rendered to HTML, and the id of the route (src/app/routes.tsx) that showed it. */
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

/** An HTML entry's page: the path it prerenders, and the id of the route that path must show. */
export type Page = { path: string; route: string };

/**
 * Each HTML entry at the project's root and its page. A path that no route claims shows the
 * catch-all, the not-found page: the build fails unless that is the entry's own route.
 */
const sitePages: Record<string, Page> = {
  'index.html': { path: '/', route: 'landing' },
  '404.html': { path: '/404', route: 'not-found' },
  'unsubscribe.html': { path: '/unsubscribe', route: 'unsubscribe' },
};
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

/**
 * No frame before the page's root is parsed to its end: a browser may paint a part-parsed page
 * (a slow connection, a busy machine), and the content is centred, so each later part would move
 * what was painted, a layout shift. Chromium unblocks on the element's arrival, not its end tag:
 * hence an empty marker right after the root. Other browsers ignore the link.
 */
const ROOT_END_ID = 'root-end';
const paintWholeRoot: HtmlTagDescriptor[] = [
  { tag: 'link', attrs: { rel: 'expect', href: `#${ROOT_END_ID}`, blocking: 'render' }, injectTo: 'head' },
  { tag: 'template', attrs: { id: ROOT_END_ID }, injectTo: 'body-prepend' },
];

export function prerender(pages = sitePages): Plugin {
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
    configResolved(config) {
      root = config.root;
      if (config.command !== 'build') return;
      const unlisted = readdirSync(root).filter((file) => file.endsWith('.html') && !(file in pages));
      if (unlisted.length > 0) {
        throw new Error(
          `prerender: ${unlisted.join(', ')} at the root has no page in vite/prerender.ts (pages): ` +
            'give it its path and route there, and the route in src/app/routes.tsx',
        );
      }
    },
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
        const { page: shown, html } = await api.render(page.path);
        if (shown !== page.route) {
          throw new Error(
            `prerender: ${path} renders ${page.path}, which shows the route "${shown}", not its own ` +
              `"${page.route}": add that route to src/app/routes.tsx`,
          );
        }
        return [
          { tag: 'div', attrs: { id: 'root' }, children: html, injectTo: 'body-prepend' },
          ...paintWholeRoot,
          ...(page.path === '/' ? [loadFailure] : []),
        ];
      },
    },
  };
}

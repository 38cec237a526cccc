/**
 * Prerendering, as one `vite build`: the server bundle (src/entry-server.tsx, Vite's `ssr`
 * environment) is built first, then the client; while the client's HTML is written, each page
 * is rendered into its `<div id="root">`. index.html holds /, 404.html the not-found page
 * (hosts serve it, with status 404, for unknown paths). The dev server gets an empty root.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { LOAD_FAILURE_ID } from '../src/features/waitlist/dom-ids.ts';
import { messages } from '../src/features/waitlist/messages.ts';

type Render = (path: string) => Promise<{ page?: string; html: string }>;

/**
 * The stylesheet of the prerendered pages: the server bundle's CSS, i.e. the styles of every
 * component it renders (the client bundle only holds the island's). Read by inline-first-load.
 */
export const prerenderedCss: { text?: string } = {};

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
  let render: Render | undefined;
  let root = process.cwd();
  return {
    name: 'prerender',
    config: (config) => ({
      builder: { sharedConfigBuild: true },
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
        await builder.build(builder.environments.ssr);
        const assets = join(serverOutDir, 'assets');
        prerenderedCss.text = readdirSync(assets)
          .filter((file) => file.endsWith('.css'))
          .map((file) => readFileSync(join(assets, file), 'utf8').trim())
          .join('\n');
        ({ render } = (await import(pathToFileURL(join(serverOutDir, 'entry-server.js')).href)) as { render: Render });
        await builder.build(builder.environments.client);
      } finally {
        rmSync(serverOutDir, { recursive: true, force: true });
      }
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(_html, { path }) {
        const page = pages[path.replace(/^\//, '')] ?? '/';
        const rendered = render ? await render(page) : { html: '' };
        return [
          {
            tag: 'div',
            attrs: { id: 'root' },
            children: rendered.html,
            injectTo: 'body-prepend',
          },
          ...(page === '/' ? [loadFailure] : []),
        ];
      },
    },
  };
}

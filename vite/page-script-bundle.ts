/**
 * Bundles one page script into one module for inline-page-scripts.ts, with the project's mode,
 * environment variables, define, aliases and target, but none of its plugins: those build
 * pages, and this is a script inside one.
 */
import { resolve } from 'node:path';
import { build, type ResolvedConfig, type Rolldown } from 'vite';

/** How a dynamic import of `module` appears in a bundled page script until the client's chunk is known. */
export const DYNAMIC = 'page-script-chunk:';

export type PageScript = { source: string; code: string; chunks: string[] };

/** Bundles `source` (as the HTML names it) into one module; its dynamic imports stay imports, marked. */
export async function bundlePageScript(config: ResolvedConfig, source: string): Promise<PageScript> {
  const chunks = new Set<string>();
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    envDir: config.envDir,
    envPrefix: config.envPrefix,
    define: config.define,
    resolve: { alias: config.resolve.alias },
    logLevel: 'warn',
    plugins: [
      {
        name: 'page-script-dynamic-imports',
        async resolveDynamicImport(specifier, importer) {
          const resolved = typeof specifier === 'string' ? await this.resolve(specifier, importer) : null;
          if (!resolved) {
            throw new Error(`page-script-bundle: cannot resolve import(${String(specifier)}) in ${importer}`);
          }
          chunks.add(resolved.id);
          return { id: DYNAMIC + resolved.id, external: true };
        },
      },
    ],
    build: {
      target: config.build.target,
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: false,
      rolldownOptions: { input: resolve(config.root, source.replace(/^\//, '')), output: { codeSplitting: false } },
    },
  });
  const [entry, ...rest] = [result as Rolldown.RolldownOutput | Rolldown.RolldownOutput[]]
    .flat()
    .flatMap(({ output }) => output);
  if (entry?.type !== 'chunk' || rest.length > 0) throw new Error(`page-script-bundle: ${source} is not one module`);
  // Inside <script>, these would end the element or change how the HTML parser reads it.
  if (/<\/script|<!--|<script/i.test(entry.code)) throw new Error(`page-script-bundle: ${source} holds HTML markup`);
  return { source, code: entry.code.trim(), chunks: [...chunks] };
}

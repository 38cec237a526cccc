/**
 * The first-load budget, checked on a production build: what the landing page fetches before any
 * interaction, gzip-compressed (level 9), against the budgets.
 * Usage: tsx scripts/check-size.ts [dir]   — exits non-zero when over budget.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { attribute, elements, inlineTexts } from '../vite/html-edit.ts';

const dir = process.argv[2] ?? 'dist';
const budgets = { js: 10_000, total: 20_000 };

const gzip = (data: string | Buffer) => gzipSync(data, { level: 9 }).length;

/** `import … from "./x.js"` in a minified chunk: fetched before the chunk runs. */
const staticImports = (code: string) => [
  ...code.matchAll(/(?:^|[;}])\s*import\s*(?:[\w${}\s,*]+from\s*)?["'](\.\/[^"']+)["']/g),
];

/**
 * Every file the HTML makes the browser fetch up front (read with the build's HTML parser), and
 * the static imports of those. The form's island and supabase-js wait for the visitor's first
 * interaction and are not counted; the page's inline script is (it is part of index.html, and
 * counted as JavaScript too).
 */
function firstLoad(): string[] {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = new Set(['index.html']);
  const pending: string[] = [];
  for (const element of elements(html)) {
    const rel = element.tagName === 'script' ? 'script' : element.tagName === 'link' && attribute(element, 'rel');
    const ref = attribute(element, 'src') ?? attribute(element, 'href');
    if (rel && ['script', 'stylesheet', 'modulepreload', 'icon'].includes(rel) && ref?.startsWith('/')) {
      pending.push(ref.slice(1));
    }
  }
  while (pending.length) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(join(dir, file), 'utf8');
    const refs = file.endsWith('.js')
      ? staticImports(text)
      : file.endsWith('.css')
        ? [...text.matchAll(/url\(["']?(?!data:)([^"')]+)["']?\)/g)]
        : [];
    for (const [, ref] of refs) {
      pending.push(ref.startsWith('/') ? ref.slice(1) : posix.normalize(join(dirname(file), ref)));
    }
  }
  return [...files];
}

const rows = firstLoad().map((file) => {
  const data = readFileSync(join(dir, file));
  return { file, raw: data.length, gzip: gzip(data) };
});
const inlineScript = inlineTexts(readFileSync(join(dir, 'index.html'), 'utf8'), 'script').join('\n');
const js = gzip(inlineScript) + rows.filter((row) => row.file.endsWith('.js')).reduce((sum, row) => sum + row.gzip, 0);
const total = rows.reduce((sum, row) => sum + row.gzip, 0);

const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
console.log(`First load of ${dir}/index.html, before any interaction (gzip -9):`);
for (const row of rows) {
  console.log(`  ${row.file.padEnd(44)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip`);
  if (row.file === 'index.html') {
    const raw = kb(Buffer.byteLength(inlineScript)).padStart(33);
    console.log(`    its inline <script>${raw} raw ${kb(gzip(inlineScript)).padStart(10)} gzip`);
  }
}
console.log(`  JavaScript: ${kb(js)} of ${kb(budgets.js)}   everything: ${kb(total)} of ${kb(budgets.total)}`);
if (js > budgets.js || total > budgets.total) {
  console.error('Over the first-load budget.');
  process.exit(1);
}

/** Rewrites of the built index.html that keep the first paint free of extra round trips. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Replaces each stylesheet link with the stylesheet itself; returns the inlined texts. */
export function inlineStylesheets(html: string, outDir: string): { html: string; styles: string[] } {
  const styles: string[] = [];
  const inlined = html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+)"[^>]*>/g, (_, file: string) => {
    const css = readFileSync(join(outDir, file), 'utf8').trim();
    styles.push(css);
    return `<style>${css}</style>`;
  });
  return { html: inlined, styles };
}

/**
 * The SVG favicon as a data: URL: browsers fetch a favicon early, and that round trip would
 * count against the first paint. (The .ico fallback stays a file, for browsers without SVG icons.)
 */
export function inlineSvgFavicon(html: string, outDir: string): string {
  return html.replace(/(<link rel="icon" href=)"\/([^"]+\.svg)"/, (_, start: string, file: string) => {
    const svg = readFileSync(join(outDir, file), 'utf8').trim().replace(/\s*\n\s*/g, ' ');
    return `${start}"data:image/svg+xml,${encodeURIComponent(svg).replace(/%20/g, ' ')}"`;
  });
}

/**
 * The page is readable without its JavaScript (it is prerendered), so the app's modules are
 * fetched only after the first paint: a tiny boot module (a file: the CSP allows no inline
 * script) imports them once the browser reports the first contentful paint.
 */
export function deferScripts(html: string, outDir: string): string {
  const modules: string[] = [];
  const collect = (_: string, src: string) => (modules.push(src), '');
  const stripped = html
    .replace(/\s*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g, collect)
    .replace(/<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/, (_, src: string) => {
      modules.push(src);
      return '<!--boot-->';
    });
  if (!stripped.includes('<!--boot-->')) throw new Error('deferScripts: no module script in index.html');
  const boot = `// Fetches the app once the page has painted: the prerendered page needs nothing before that.
const start = () => {${modules.map((src) => ` import(${JSON.stringify(src)});`).join('')} };
if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(start);
  }).observe({ type: 'paint', buffered: true });
} else {
  requestAnimationFrame(() => setTimeout(start));
}
`;
  const file = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`;
  writeFileSync(join(outDir, file), boot);
  return stripped.replace('<!--boot-->', `<script type="module" src="/${file}"></script>`);
}

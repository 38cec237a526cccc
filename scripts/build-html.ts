/** Rewrites of the built index.html that keep the first paint free of extra round trips. */
import { readFileSync } from 'node:fs';
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

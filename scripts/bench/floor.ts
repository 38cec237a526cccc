/**
 * The floor: the fastest page that still shows our largest paint. It keeps the built
 * index.html's page structure around the headline (html, body and every element from there
 * down to the <h1>, their start tags copied byte for byte), its charset, viewport, title and icon
 * links (without them Chromium fetches /favicon.ico during the load, a request the page does not
 * make and that Lighthouse's simulated LCP would count), and its inlined <style> elements (byte
 * for byte, so their hashes still match the CSP of _headers); nothing else: no script, no other
 * link, no other content. Served next to the site, at /floor/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attribute, elements, type Element } from '../../vite/html-edit.ts';

/** The element's source text (start tag to end tag) or, with `part` 'startTag', its start tag only. */
function source(html: string, element: Element, part: 'element' | 'startTag' = 'element'): string {
  const location = part === 'element' ? element.sourceCodeLocation : element.sourceCodeLocation?.startTag;
  if (!location) throw new Error(`floor: <${element.tagName}> has no source location`);
  return html.slice(location.startOffset, location.endOffset);
}

/** The floor page for the built index.html. */
export function floorHtml(html: string): string {
  const all = elements(html);
  const headline = all.find((element) => element.tagName === 'h1');
  if (!headline) throw new Error('floor: the built index.html has no <h1>');
  const chain: Element[] = [];
  for (let node: Element | undefined = headline; node;) {
    chain.unshift(node);
    const parent: unknown = node.parentNode;
    node = parent && typeof parent === 'object' && 'tagName' in parent ? (parent as Element) : undefined;
  }
  const [htmlElement, body] = chain;
  if (htmlElement?.tagName !== 'html' || body?.tagName !== 'body') {
    throw new Error('floor: the <h1> is not inside <html><body>');
  }
  const head = all.filter(
    (element) =>
      (element.tagName === 'meta' && (attribute(element, 'charset') || attribute(element, 'name') === 'viewport')) ||
      element.tagName === 'title' ||
      (element.tagName === 'link' && attribute(element, 'rel')?.split(/\s+/).includes('icon')) ||
      element.tagName === 'style',
  );
  if (!head.some((element) => element.tagName === 'style')) throw new Error('floor: no inlined <style> to copy');
  const wrappers = chain.slice(1, -1); // body … the h1's parent
  return [
    '<!doctype html>',
    source(html, htmlElement, 'startTag'),
    '<head>',
    ...head.map((element) => source(html, element)),
    '</head>',
    wrappers.map((element) => source(html, element, 'startTag')).join('') +
      source(html, headline) +
      wrappers
        .reverse()
        .map((element) => `</${element.tagName}>`)
        .join(''),
    '</html>',
    '',
  ].join('\n');
}

/** Writes `dir`/floor/index.html from `dir`/index.html; returns the page's path under the site ("floor/"). */
export function writeFloor(dir: string): string {
  const page = floorHtml(readFileSync(join(dir, 'index.html'), 'utf8'));
  mkdirSync(join(dir, 'floor'), { recursive: true });
  writeFileSync(join(dir, 'floor', 'index.html'), page);
  return 'floor/';
}

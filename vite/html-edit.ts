/**
 * Edits built HTML through a real parser (parse5): each edit replaces the exact source range
 * of an element or of one attribute's value, leaving the rest of the file byte for byte.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';

export type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/** The element's attribute, or undefined. */
export const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name)?.value;

/** Every element of the document, in document order. */
export function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: ParentNode) => {
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      found.push(child);
      walk('content' in child ? child.content : child);
    }
  };
  walk(parse(html, { sourceCodeLocationInfo: true }));
  return found;
}

/** The text of each inline <style> or <script> (one without src) of the document, in order. */
export const inlineTexts = (html: string, tagName: 'style' | 'script') =>
  elements(html)
    .filter((element) => element.tagName === tagName && attribute(element, 'src') === undefined)
    .map((element) => element.childNodes.map((text) => ('value' in text ? text.value : '')).join(''));

/** What to put in place of an element, or of one of its attributes' values (already escaped). */
export type Edit = { element: string } | { attribute: string; value: string };

/** Applies `edit` to every element; an element for which it returns undefined stays as it is. */
export function editHtml(html: string, edit: (element: Element) => Edit | undefined): string {
  const replacements: { start: number; end: number; text: string }[] = [];
  for (const element of elements(html)) {
    const change = edit(element);
    const location = element.sourceCodeLocation;
    if (!change || !location) continue;
    if ('element' in change) {
      replacements.push({ start: location.startOffset, end: location.endOffset, text: change.element });
      continue;
    }
    const range = location.attrs?.[change.attribute];
    if (!range) throw new Error(`<${element.tagName}> has no ${change.attribute} attribute to edit`);
    replacements.push({
      start: range.startOffset,
      end: range.endOffset,
      text: `${change.attribute}="${change.value}"`,
    });
  }
  return replacements
    .sort((a, b) => b.start - a.start)
    .reduce((result, { start, end, text }) => result.slice(0, start) + text + result.slice(end), html);
}

/**
 * sonner (the toast library) adds its stylesheet at runtime as one <style> element whose text
 * is a fixed string in its bundle: `__insertCSS("…")`. Its SHA-256 lets the CSP allow exactly
 * that element. Read from the installed sonner, so an upgrade cannot leave a stale hash behind.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CALL = '__insertCSS("';

/** The CSS text sonner inserts, read from the given module (by default the installed sonner's ESM build). */
export function sonnerCss(modulePath = fileURLToPath(import.meta.resolve('sonner'))): string {
  const source = readFileSync(modulePath, 'utf8');
  const start = source.indexOf(CALL);
  if (start < 0) throw new Error(`sonner-style-hash: no ${CALL}…) call in ${modulePath}`);
  let end = start + CALL.length;
  while (end < source.length && source[end] !== '"') end += source[end] === '\\' ? 2 : 1;
  const css: unknown = JSON.parse(source.slice(start + CALL.length - 1, end + 1));
  if (typeof css !== 'string' || !css.includes('[data-sonner-toaster]')) {
    throw new Error(`sonner-style-hash: unexpected ${CALL}…) argument in ${modulePath}`);
  }
  return css;
}

/** A CSP hash source for an inline <style> or <script> text: sha256-… (to be single-quoted). */
export function cspHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

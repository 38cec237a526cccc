/**
 * The site's colours, written once: the custom properties (`--name: value`) of the `:root` rule
 * of src/styles.css, read for the images that npm run images draws (scripts/make-images.ts).
 */
import { readFileSync } from 'node:fs';
import postcss from 'postcss';

const stylesheet = new URL('../../src/styles.css', import.meta.url);

export function palette(css = readFileSync(stylesheet, 'utf8')): Map<string, string> {
  const colours = new Map<string, string>();
  postcss
    .parse(css)
    .walkRules(':root', (rule) =>
      rule.walkDecls(/^--/, (declaration) => void colours.set(declaration.prop, declaration.value)),
    );
  return colours;
}

/** One colour of the palette; the stylesheet must define it. */
export function colour(colours: Map<string, string>, name: string): string {
  const value = colours.get(name);
  if (value === undefined) throw new Error(`src/styles.css defines no ${name} in its :root rule`);
  return value;
}

/** The palette as a `:root` rule, for a page of its own (the social image's template). */
export const rootRule = (colours: Map<string, string>) =>
  `:root { ${[...colours].map(([name, value]) => `${name}: ${value};`).join(' ')} }`;

import type { Locator, Page } from '@playwright/test';
import { contrast, over, parseColour, ratio, type Rgba } from './contrast';

/** The colours an element shows, from its computed style, composited over the page's background. */
export type Look = { fill: Rgba; text: Rgba; edge: Rgba; outline: Rgba; outlineWidth: number; spinner: Rgba };

/** The page's background (the body's background colour, opaque). */
export const pageBackground = async (page: Page) =>
  parseColour(await page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor));

/**
 * How `element` looks now: its fill, text, border, outline and (for the button) its spinner's
 * arc, each drawn over `behind` at the element's effective opacity (its own times its ancestors').
 */
export async function lookOf(element: Locator, behind: Rgba): Promise<Look> {
  const raw = await element.evaluate((node) => {
    const style = getComputedStyle(node);
    let opacity = 1;
    for (let at: Element | null = node; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    const spinner = node.querySelector('[aria-hidden="true"]');
    return {
      fill: style.backgroundColor,
      text: style.color,
      edge: style.borderTopColor,
      outline: style.outlineStyle === 'none' ? 'rgba(0, 0, 0, 0)' : style.outlineColor,
      outlineWidth: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
      spinner: spinner ? getComputedStyle(spinner).borderTopColor : 'rgba(0, 0, 0, 0)',
      opacity,
    };
  });
  const fill = over(parseColour(raw.fill), behind, raw.opacity);
  const drawn = (colour: string, under = behind) => over(parseColour(colour), under, raw.opacity);
  return {
    fill,
    text: drawn(raw.text, fill),
    edge: drawn(raw.edge),
    outline: drawn(raw.outline),
    outlineWidth: raw.outlineWidth,
    spinner: drawn(raw.spinner, fill),
  };
}

/** Contrast ratios, measured and named, for a test's report and its one assertion. */
export class Ratios {
  readonly measured: { what: string; ratio: number; least: number }[] = [];

  add(what: string, one: Rgba, other: Rgba, least = 3) {
    this.measured.push({ what, ratio: ratio(contrast(one, other)), least });
  }

  /** Each measurement as `what: ratio:1`. */
  report = () => this.measured.map(({ what, ratio }) => `${what}: ${ratio}:1`).join('\n');

  /** The measurements under their threshold. */
  short = () => this.measured.filter(({ ratio, least }) => ratio < least);
}

/**
 * WCAG 2.2's contrast ratio of two computed colours (the relative luminance formula of its
 * definitions), for checking non-text contrast (SC 1.4.11) from computed styles.
 */

/** An sRGB colour, channels 0–255, alpha 0–1. */
export type Rgba = { r: number; g: number; b: number; a: number };

/**
 * A computed colour as browsers serialize it: `rgb(…)`, `rgba(…)`, or `color(srgb …)` (what
 * `color-mix(in srgb, …)` computes to).
 */
export function parseColour(value: string): Rgba {
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (rgb) return { r: +rgb[1], g: +rgb[2], b: +rgb[3], a: alpha(rgb[4]) };
  const srgb = /^color\(srgb\s+([\d.e-]+)\s+([\d.e-]+)\s+([\d.e-]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (srgb) return { r: +srgb[1] * 255, g: +srgb[2] * 255, b: +srgb[3] * 255, a: alpha(srgb[4]) };
  throw new Error(`contrast: cannot read the colour "${value}"`);
}

const alpha = (value: string | undefined) =>
  value === undefined ? 1 : value.endsWith('%') ? parseFloat(value) / 100 : +value;

/** `top` drawn over the opaque `bottom` (alpha compositing), optionally at a further opacity. */
export function over(top: Rgba, bottom: Rgba, opacity = 1): Rgba {
  const a = top.a * opacity;
  const mix = (t: number, b: number) => t * a + b * (1 - a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrast(one: Rgba, other: Rgba): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Rounded down to two decimals, as a ratio is reported (never rounded up past a threshold). */
export const ratio = (value: number) => Math.floor(value * 100) / 100;

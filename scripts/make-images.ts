/**
 * Regenerates the images committed in public/ (npm run images): favicon.svg, favicon.ico
 * (16 + 32 px), apple-touch-icon.png (180 px) and og-image.png (1200×630, from
 * scripts/images/og-image.html). Chromium renders them; ImageMagick (`apt-get install -y
 * imagemagick`) packs the .ico and recompresses the PNGs losslessly. The image text uses the
 * system monospace font (Liberation Mono on Debian). The colours are the site's, read from
 * src/styles.css (scripts/images/palette.ts).
 */
import { chromium, type Browser } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { colour, palette, rootRule } from './images/palette.ts';

const colours = palette();
const ACCENT = colour(colours, '--accent');
const BACKGROUND = colour(colours, '--bg');
const EDGE = colour(colours, '--border');
const OG_IMAGE_BUDGET = 120 * 1024;

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const ogTemplate = fileURLToPath(new URL('./images/og-image.html', import.meta.url));
/** Where the template takes the palette (a :root rule of src/styles.css's colours). */
const PALETTE_MARK = '<!-- palette -->';

/**
 * A terminal prompt `>_` on a 32-unit grid, drawn as paths so it stays crisp at 16 px.
 * `tile`: a rounded dark tile for tabs; `square`: full-bleed, as iOS masks the corners itself.
 */
function iconSvg(shape: 'tile' | 'square'): string {
  const background =
    shape === 'tile'
      ? `<rect x="1" y="1" width="30" height="30" rx="7" fill="${BACKGROUND}" stroke="${EDGE}" stroke-width="2"/>`
      : `<rect width="32" height="32" fill="${BACKGROUND}"/>`;
  const glyph = shape === 'tile' ? '' : ' transform="translate(5.6 5.6) scale(.65)"';
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    `  ${background}`,
    `  <g fill="none" stroke="${ACCENT}" stroke-width="4"${glyph}>`,
    '    <path d="M7 8l8 8-8 8" stroke-linecap="square"/>',
    '    <path d="M18 24h8"/>',
    '  </g>',
    '</svg>',
    '',
  ].join('\n');
}

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** ImageMagick's command: `magick` (version 7) or `convert` (version 6, Debian 12). */
const magick = ['magick', 'convert'].find((command) => spawnSync(command, ['-version']).status === 0);

/** Both tools, before any work: what is missing, and how to install it. */
const missing = [
  ...(existsSync(chromiumPath)
    ? []
    : [`Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`]),
  ...(magick ? [] : ['ImageMagick (apt-get install -y imagemagick; brew install imagemagick on macOS)']),
];
if (missing.length) {
  console.error(`npm run images needs:\n  - ${missing.join('\n  - ')}`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'coming-soon-images-'));
const imageMagick = (args: string[]) => execFileSync(magick!, args);

/** Renders HTML in a page of exactly width × height CSS pixels; returns the PNG's path in a temp dir. */
async function screenshot(browser: Browser, html: string, width: number, height: number, transparent = false) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  try {
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    const file = join(work, `${width}x${height}.png`);
    await page.screenshot({ path: file, type: 'png', omitBackground: transparent });
    return file;
  } finally {
    await page.close();
  }
}

/** The PNG recompressed at the highest level, metadata stripped (lossless). */
const optimised = (png: string) => imageMagick([png, '-strip', '-define', 'png:compression-level=9', 'png:-']);

function svgPage(svg: string, size: number): string {
  const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return (
    '<!doctype html><style>html,body{margin:0;background:transparent}img{display:block}</style>' +
    `<img src="${source}" width="${size}" height="${size}" alt="">`
  );
}

/** The social image's template with the site's palette put where it says. */
function ogPage(): string {
  const [before, after, ...more] = readFileSync(ogTemplate, 'utf8').split(PALETTE_MARK);
  if (after === undefined || more.length) throw new Error(`${ogTemplate} must hold ${PALETTE_MARK} once`);
  return `${before}<style>${rootRule(colours)}</style>${after}`;
}

function write(name: string, data: string | Buffer) {
  writeFileSync(publicDir + name, data);
  console.log(`public/${name.padEnd(22)} ${String(Buffer.byteLength(data)).padStart(7)} bytes`);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-gpu', '--disable-quic', '--font-render-hinting=none'],
  });
  try {
    const tile = iconSvg('tile');
    write('favicon.svg', tile);
    const icons = [];
    for (const size of [16, 32]) icons.push(await screenshot(browser, svgPage(tile, size), size, size, true));
    write('favicon.ico', imageMagick([...icons, 'ico:-']));
    write('apple-touch-icon.png', optimised(await screenshot(browser, svgPage(iconSvg('square'), 180), 180, 180)));
    const og = optimised(await screenshot(browser, ogPage(), 1200, 630));
    write('og-image.png', og);
    if (og.length > OG_IMAGE_BUDGET) throw new Error(`og-image.png is ${og.length} bytes, over ${OG_IMAGE_BUDGET}`);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

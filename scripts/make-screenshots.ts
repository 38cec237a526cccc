/**
 * Regenerates the screenshots in docs/ (npm run screenshots): the landing page idle, sending,
 * and with each toast, on a desktop (1280 × 800) and a phone (390 × 844), each a PNG in
 * docs/screenshots/, and docs/screenshot.png (the README's). The dev server on the mock backend
 * acts out every state (the README's addresses); Chromium draws them with reduced motion, so
 * nothing is caught mid-animation. ImageMagick reduces each to a small palette PNG.
 */
import { chromium, type Page } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { magicAddresses } from '../mocks/handlers.ts';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels.ts';
import { messages } from '../src/features/waitlist/texts/messages.ts';

const docs = fileURLToPath(new URL('../docs/', import.meta.url));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const magick = ['magick', 'convert'].find((command) => spawnSync(command, ['-version']).status === 0);
if (!magick) {
  console.error('npm run screenshots needs ImageMagick (apt-get install -y imagemagick)');
  process.exit(1);
}

const screens = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** What the visitor does for each state, and what shows when it is there. */
const states: Record<string, (page: Page) => Promise<void>> = {
  idle: async () => {},
  sending: async (page) => {
    await submit(page, magicAddresses.slow);
    await page.getByRole('button', { name: buttonLabels.sending }).waitFor();
  },
  'email-required': (page) => submitAndSee(page, '', messages.emailRequired.title),
  'invalid-email': (page) => submitAndSee(page, 'ada@example', messages.invalidEmail.title),
  'already-registered': (page) => submitAndSee(page, 'taken@example.com', messages.alreadyRegistered.title),
  error: (page) => submitAndSee(page, magicAddresses.error, messages.failed.title),
  added: (page) => submitAndSee(page, `ada+${Date.now()}@example.com`, messages.added.title),
};

async function submit(page: Page, address: string) {
  await page.getByRole('textbox', { name: 'Email address' }).fill(address);
  await page.getByRole('button', { name: buttonLabels.idle }).click();
}

async function submitAndSee(page: Page, address: string, title: string) {
  await submit(page, address);
  await page.locator('[data-sonner-toast]').filter({ hasText: title }).waitFor();
  await page.mouse.move(0, 0); // no hover on the form
}

/** The PNG at `path` reduced to a palette of 96 colours, undithered (the page has few), metadata stripped. */
const shrink = (path: string) =>
  execFileSync(magick!, [
    path,
    '-strip',
    '+dither',
    '-colors',
    '96',
    '-define',
    'png:compression-level=9',
    `png8:${path}`,
  ]);

async function main() {
  process.env.VITE_API_MOCKING = 'on';
  const server = await createServer({ server: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
  await server.listen();
  const origin = server.resolvedUrls!.local[0];
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--disable-gpu', '--disable-quic'] });
  mkdirSync(`${docs}screenshots`, { recursive: true });
  try {
    for (const [screen, viewport] of Object.entries(screens)) {
      for (const [state, reach] of Object.entries(states)) {
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion: 'reduce' });
        const page = await context.newPage();
        await page.goto(`${origin}?reset-mock`);
        await page.mouse.move(10, 10); // fetches the form's code
        await page.getByRole('button', { name: buttonLabels.idle }).and(page.locator(':enabled')).waitFor();
        await reach(page);
        const files = [`screenshots/${screen}-${state}.png`];
        if (screen === 'desktop' && state === 'idle') files.push('screenshot.png');
        for (const file of files) {
          await page.screenshot({ path: docs + file });
          shrink(docs + file);
          console.log(`docs/${file.padEnd(38)} ${String(statSync(docs + file).size).padStart(7)} bytes`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();

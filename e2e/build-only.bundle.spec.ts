import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attribute, elements, inlineTexts } from '../vite/html-edit';
import { expect, test } from './fixtures';

/** The production build that the build project serves (see playwright.config.ts). */
const dist = 'build/e2e';
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });

test('the production build ships no mock backend', () => {
  expect(files).not.toContain('mockServiceWorker.js');
  const scripts = files.filter((file) => file.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  const code = [
    ...scripts.map((file) => ({ file, text: readFileSync(join(dist, file), 'utf8') })),
    ...files
      .filter((file) => file.endsWith('.html'))
      .map((file) => ({ file, text: inlineTexts(readFileSync(join(dist, file), 'utf8'), 'script').join('\n') })),
  ];
  for (const { file, text } of code) {
    expect(text, file).not.toMatch(/mockServiceWorker|msw|magic addresses|taken@example\.com/i);
  }
});

test('every class in the prerendered pages has a rule in the inlined stylesheet', () => {
  for (const file of ['index.html', '404.html', 'unsubscribe.html']) {
    const html = readFileSync(join(dist, file), 'utf8');
    const css = inlineTexts(html, 'style').join('');
    const classes = new Set(elements(html).flatMap((element) => attribute(element, 'class')?.split(/\s+/) ?? []));
    // sonner styles its own elements at runtime; the rest must be in the page's stylesheet.
    const ours = [...classes].filter((name) => name && !name.startsWith('sonner'));
    expect(ours.length, file).toBeGreaterThan(3);
    for (const name of ours) expect(css, `.${name} in ${file}`).toContain(`.${name}`);
  }
});

test('before the visitor acts, the landing page fetches no script; the first interaction brings the island', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  await page.goto('/', { waitUntil: 'load' });
  await expect(page.getByRole('heading', { name: 'COMING SOON' })).toBeVisible();
  expect(scripts).toEqual([]);
  await page.getByRole('textbox', { name: 'Email address' }).focus();
  await expect
    .poll(() => scripts.toSorted())
    .toEqual([
      expect.stringMatching(/^\/assets\/supabase-[\w-]+\.js$/),
      expect.stringMatching(/^\/assets\/waitlist-[\w-]+\.js$/),
    ]);
});

/**
 * How the host answers, as production will: unknown paths get the prerendered not-found page
 * with status 404, hashed assets are cached for good, pages are revalidated, text is compressed.
 * Runs against every host the build is tested on (projects "pages" and "nginx").
 */
import { readdirSync } from 'node:fs';
import { unsubscribeTexts } from '../src/pages/unsubscribe';
import { expect, test } from './fixtures';

/** The form's island: a hashed file the landing page loads once the visitor acts. */
const island = readdirSync('build/e2e/assets').find((file) => file.startsWith('waitlist-'));

test('an unknown path is a 404 with the prerendered not-found page', async ({ request }) => {
  for (const path of ['/no/such/page', '/assets/gone-1234.js', '/assets/']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).toContain('Oops! Page not found');
  }
});

test('the unsubscribe page is served at /unsubscribe, as a page', async ({ request }) => {
  const response = await request.get('/unsubscribe');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/html/);
  expect(await response.text()).toContain(unsubscribeTexts.ask);
});

test('the files meant for the host are not served, and the nginx header lines are not in the site', async ({
  request,
}) => {
  // The nginx lines were once published as /_headers.nginx.conf; the build now writes them beside the site.
  for (const path of ['/_headers', '/_headers.nginx.conf']) expect((await request.get(path)).status(), path).toBe(404);
});

test('hashed assets are cached for good; pages are revalidated; text is compressed', async ({ request }) => {
  const asset = await request.get(`/assets/${island}`);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('gzip');
  const page = await request.get('/');
  expect(page.status()).toBe(200);
  expect(page.headers()['content-type']).toMatch(/^text\/html/);
  expect(page.headers()['cache-control']).not.toMatch(/immutable/);
  expect(page.headers()['content-encoding']).toBe('gzip');
});

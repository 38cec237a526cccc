import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

/** The production build that the build project serves (see playwright.config.ts). */
const dist = 'build/e2e';
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });

test('the production build ships no mock backend', () => {
  expect(files).not.toContain('mockServiceWorker.js');
  const scripts = files.filter((file) => file.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    const code = readFileSync(join(dist, script), 'utf8');
    expect(code, script).not.toMatch(/mockServiceWorker|msw|magic addresses|taken@example\.com/i);
  }
});

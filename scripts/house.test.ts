// @vitest-environment node
/**
 * The house stays easy to read: a five-minute README, the words it leaves to the docs defined
 * there, and the tooling no heavier than the product.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const architecture = readFileSync('docs/architecture.md', 'utf8');

it('the README is at most 120 lines', () => {
  expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(120);
});

it("the house's own words are defined in docs/architecture.md's glossary", () => {
  const glossary = architecture.slice(architecture.indexOf('## Glossary'));
  for (const term of [
    'Island',
    'First script',
    'Early submit',
    'Outcome',
    'Catalogue',
    'Mock layer',
    'Guard',
    'Sealed list',
  ]) {
    expect(glossary).toMatch(new RegExp(`^- \\*\\*${term}[^*]*\\*\\*: `, 'm'));
  }
});

it('scripts/ holds no more lines than src/ (tests excluded from both)', () => {
  const lines = (folder: string) =>
    execFileSync('git', ['ls-files', folder], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && !/\.test\.tsx?$/.test(file))
      .reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length - 1, 0);
  expect(lines('scripts')).toBeLessThanOrEqual(lines('src'));
});

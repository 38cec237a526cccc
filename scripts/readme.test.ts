// @vitest-environment node
/** The README stays a five-minute read; the words it leaves to the docs are defined there. */
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

// @vitest-environment node
/**
 * The house stays easy to read: a five-minute README, the words the code uses defined once in the
 * glossary, no word of a retired design left behind, no prose line too long to read, and every folder
 * within its weight: code in tokens, docs in words (scripts/house.ts; `npm run house` prints them).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { isTest, tracked, weigh, type Weights } from './house.ts';

const architecture = readFileSync('docs/architecture.md', 'utf8');
const weights = weigh();

it("the house's own words are each defined in docs/architecture.md's glossary", () => {
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
    'Seal',
    'Hour key',
    'Wrapped hour key',
    'Owner key',
    'Address hash',
    'Address hash secret',
    'Canonical address',
    'Network hash',
  ]) {
    // The term itself, or the term and its other name ("Early submit, held submit").
    expect(glossary).toMatch(new RegExp(`^- \\*\\*${term}(, [^*]+)?\\*\\*: `, 'm'));
  }
});

it('no word of the retired designs is left in a tracked file', () => {
  // The hash ratchet and its recovery key, and the names the baseline replaced. Only the old
  // chain (kept as test fixtures), the clean-up that moves a database off it, and that clean-up's
  // tests may say them: they must name the old objects.
  const retired =
    /ratchet|recovery[ -]key|wlrk1_|waiting_list_keys|\bseal_keys\b|owner_secret|email_key\(|keys upgrade|keys rotate/i;
  const allowed = (file: string) =>
    file.startsWith('supabase/tests/fixtures/') ||
    file.startsWith('supabase/baseline/') ||
    ['cli/commands/baseline.ts', 'cli/tests/baseline.test.ts', 'supabase/tests/baseline.test.ts'].includes(file) ||
    file === 'scripts/house.test.ts';
  const found = tracked()
    .filter((file) => !allowed(file))
    .flatMap((file) => {
      const text = readFileSync(file);
      if (text.includes(0)) return retired.test(file) ? [file] : []; // binary: its name only
      return [file, ...text.toString('utf8').split('\n')]
        .map((line, index) => ({ line, where: index ? `${file}:${index}` : file }))
        .filter(({ line }) => retired.test(line))
        .map(({ where, line }) => `${where}: ${line.trim().slice(0, 120)}`);
    });
  expect(found).toEqual([]);
});

/**
 * The budgets, read from docs/architecture.md's "Weights" table, their one place: a row is `| what |
 * weighed | then | budget |`, and `what` starts with the weight's name (`cli/`, `./`, "test code",
 * "every `.md`", `README.md`).
 */
function budgets(): [keyof Weights, number][] {
  const table = architecture.slice(architecture.indexOf('## Weights')).split('\n## ')[0];
  const names: Record<string, keyof Weights> = { 'test code': 'tests', 'every `.md`': 'docs', '`README.md`': 'readme' };
  return [...table.matchAll(/^\| ([^|]+?) \| [^|]+ \| [\d,]+ \| ([\d,]+) \|$/gm)].map(([, what, budget]) => {
    const folder = /^`([\w.]+)\/`/.exec(what)?.[1];
    const name = folder ?? Object.entries(names).find(([start]) => what.startsWith(start))?.[1];
    return [name as keyof Weights, Number(budget.replaceAll(',', ''))];
  });
}

it('docs/architecture.md gives every weight a budget, once', () => {
  const named = budgets().map(([name]) => name);
  expect(named.sort()).toEqual(Object.keys(weights).sort());
});

it.each(budgets())('%s is within its budget, %d', (name, budget) => {
  expect(weights[name]).toBeLessThanOrEqual(budget);
});

it('no prose line of a doc is over 120 characters (tables and code blocks aside)', () => {
  const long = tracked()
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => {
      let inCode = false;
      return readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => {
          const fence = line.trimStart().startsWith('```');
          if (fence) {
            inCode = !inCode;
          }
          const prose = !inCode && !fence && !line.trimStart().startsWith('|');
          return prose && line.length > 120 ? `${file}:${index + 1}` : '';
        })
        .filter(Boolean);
    });
  expect(long).toEqual([]);
});

it('cli/commands.ts maps each command to cli/commands/<name>.ts, none loaded by a computed name', () => {
  const table = readFileSync('cli/commands.ts', 'utf8');
  const listed = [
    ...table.matchAll(/^ {2}(\w+): async \(\) => \(await import\('\.\/commands\/(\w+)\.ts'\)\)\.(\w+)Command\(\),$/gm),
  ];
  expect(listed.map(([, name, file, made]) => [name, file, made]).filter(([n, f, m]) => n !== f || n !== m)).toEqual(
    [],
  );
  const files = tracked('cli/commands').filter((file) => /^cli\/commands\/[\w-]+\.ts$/.test(file));
  expect(files.map((file) => file.slice('cli/commands/'.length, -3)).sort()).toEqual(
    listed.map(([, name]) => name).sort(),
  );
  // Any import() whose argument is not one string literal hides a command from the map.
  const computed = tracked('cli')
    .filter((file) => /\.(ts|js)$/.test(file) && !isTest(file))
    .filter((file) => /\bimport\((?!\s*'[^'`$]+'\s*\))/.test(readFileSync(file, 'utf8')));
  expect(computed).toEqual([]);
});

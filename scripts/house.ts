/**
 * The house's weights: code in tokens, docs in words. A token is what TypeScript's own scanner reads
 * (comments and whitespace aside; a template literal rescanned at each `}` that closes a `${`), so
 * neither formatting nor comments move the figure: lines can be bought by re-wrapping, tokens cannot.
 * `.sql` is not weighed (the migrations are append-only history). `npm run house` prints the figures;
 * scripts/house.test.ts holds them to their budgets.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import ts from 'typescript';

/** Tracked files (under `folder`, if given) that are still on disk. */
export const tracked = (folder?: string) =>
  execFileSync('git', ['ls-files', '-z', ...(folder ? [folder] : [])], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && existsSync(file));

/** The code the weights count: .ts .tsx .js .mjs files, fixtures/ folders aside. */
const isCode = (file: string) => /\.(tsx?|m?js)$/.test(file) && !/(^|\/)fixtures\//.test(file);

/** Test code: under a test/ or tests/ folder, or named *.test.* or *.spec.*. */
export const isTest = (file: string) => /(^|\/)tests?\//.test(file) || /\.(test|spec)\./.test(file);

/** Code tokens of one source text. */
export function codeTokens(text: string, jsx = false): number {
  const variant = jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, variant, text);
  // One entry per open `{` or `${`: true where the `}` that closes it resumes a template literal.
  const opened: boolean[] = [];
  let count = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.TemplateHead) {
      opened.push(true);
    } else if (kind === ts.SyntaxKind.OpenBraceToken) {
      opened.push(false);
    } else if (kind === ts.SyntaxKind.CloseBraceToken && opened.pop()) {
      if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateMiddle) {
        opened.push(true);
      }
    }
    count += 1;
  }
  return count;
}

const tokensOf = (files: string[]) =>
  files.reduce((sum, file) => sum + codeTokens(readFileSync(file, 'utf8'), file.endsWith('x')), 0);

/** Words as `wc -w` counts them. */
export const words = (file: string) => readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).length;

/** The top folders whose non-test code is weighed, each on its own. */
export const FOLDERS = ['src', 'cli', 'supabase', 'mocks', 'contracts', 'vite', 'e2e', 'scripts'] as const;

export type Weights = Record<(typeof FOLDERS)[number] | 'tests', number> & { docs: number; readme: number };

export function weigh(): Weights {
  const code = tracked().filter(isCode);
  const folder = (name: string) => tokensOf(code.filter((file) => file.startsWith(`${name}/`) && !isTest(file)));
  const docs = tracked().filter((file) => file.endsWith('.md'));
  return {
    ...(Object.fromEntries(FOLDERS.map((name) => [name, folder(name)])) as Record<(typeof FOLDERS)[number], number>),
    tests: tokensOf(code.filter(isTest)),
    docs: docs.reduce((sum, file) => sum + words(file), 0),
    readme: words('README.md'),
  };
}

if (import.meta.main) {
  const weights = weigh();
  const rows: [string, number][] = [
    ...FOLDERS.map((name): [string, number] => [`${name}/ (tokens, tests aside)`, weights[name]]),
    ['test code (tokens)', weights.tests],
    ['docs, every .md (words)', weights.docs],
    ['README.md (words)', weights.readme],
  ];
  for (const [what, figure] of rows) {
    console.log(`${what.padEnd(34)}${figure.toLocaleString('en-US').padStart(9)}`);
  }
}

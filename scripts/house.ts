/**
 * The house's weights: code in tokens, docs in words. A token is a leaf of the syntax tree TypeScript's
 * parser reads (comments and whitespace aside), so neither formatting nor comments move the figure:
 * lines can be bought by re-wrapping, tokens cannot.
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

/**
 * Code tokens of one source file: the leaves of its syntax tree as TypeScript's parser reads it, so a
 * regular expression, a string or a template literal's piece is one token, whatever it holds. JSDoc,
 * whitespace-only JSX text and a trailing comma (Prettier adds one where it wraps a list) are not counted.
 */
export function codeTokens(text: string, file = 'file.ts'): number {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const count = (node: ts.Node): number => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) {
      return 0;
    }
    const children = node.getChildren(source);
    if (children.length) {
      const trailingComma =
        node.kind === ts.SyntaxKind.SyntaxList && children.at(-1)?.kind === ts.SyntaxKind.CommaToken;
      return children.slice(0, trailingComma ? -1 : undefined).reduce((sum, child) => sum + count(child), 0);
    }
    const blank = ts.isJsxText(node) && node.containsOnlyTriviaWhiteSpaces;
    return node.kind === ts.SyntaxKind.EndOfFileToken || node.kind === ts.SyntaxKind.SyntaxList || blank ? 0 : 1;
  };
  return count(source);
}

const tokensOf = (files: string[]) =>
  files.reduce((sum, file) => sum + codeTokens(readFileSync(file, 'utf8'), file), 0);

/** Words as `wc -w` counts them. */
export const words = (file: string) => readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).length;

/** The top folders whose non-test code is weighed, each on its own; `.` is the files at the top (configurations). */
export const FOLDERS = ['src', 'cli', 'supabase', 'mocks', 'contracts', 'vite', 'e2e', 'scripts', '.'] as const;

export type Weights = Record<(typeof FOLDERS)[number] | 'tests', number> & { docs: number; readme: number };

const inFolder = (file: string, name: string) => (name === '.' ? !file.includes('/') : file.startsWith(`${name}/`));

export function weigh(): Weights {
  const code = tracked().filter(isCode);
  const folder = (name: string) => tokensOf(code.filter((file) => inFolder(file, name) && !isTest(file)));
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
    ...FOLDERS.map((name): [string, number] => [`${name}/ (code tokens, tests aside)`, weights[name]]),
    ['test code (code tokens)', weights.tests],
    ['docs, every .md (words)', weights.docs],
    ['README.md (words)', weights.readme],
  ];
  for (const [what, figure] of rows) {
    console.log(`${what.padEnd(38)}${figure.toLocaleString('en-US').padStart(9)}`);
  }
}

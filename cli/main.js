/**
 * npm run waitlist -- <command>. Plain JavaScript that any Node can read: it checks the Node
 * version against package.json's engines before the program's TypeScript is loaded (an older Node
 * cannot load it and would only print a stack trace), then runs the program (program.ts).
 */
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Whether version x.y.z meets a range of `^x.y.z` and `>=x.y.z` joined by `||` (the forms package.json uses). */
function satisfies(version, range) {
  const [major, minor, patch] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`package.json engines.node: cannot read ${JSON.stringify(part)}`);
    const [x, y, z] = match.slice(2).map(Number);
    const atLeast = major > x || (major === x && (minor > y || (minor === y && patch >= z)));
    return atLeast && (match[1] === '>=' || major === x);
  });
}

if (!satisfies(process.versions.node, engines.node)) {
  process.stderr.write(
    `waitlist: this is Node ${process.versions.node}; the command needs Node ${engines.node}.\n` +
      'With nvm: `nvm install && nvm use` in this folder (it reads .nvmrc: Node 24).\n' +
      "Without: install Node 24 LTS from https://nodejs.org, or your system's package manager.\n",
  );
  process.exit(2);
}

await import('./program.ts');

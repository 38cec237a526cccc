/**
 * The one rule for which Node runs the project: package.json's engines.node, in plain JavaScript.
 * Alone (`node cli/node-version.js`) it exits 0 on a supported Node, else 1 (.ci/node.sh asks it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** package.json's engines.node, e.g. `^24.15.0 || >=26.0.0`. */
export const supportedNode = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;

/** Whether version x.y.z meets a range of `^x.y.z` and `>=x.y.z` joined by `||` (the forms package.json uses). */
export function satisfies(version, range = supportedNode) {
  const [major, minor, patch] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`package.json engines.node: cannot read ${JSON.stringify(part)}`);
    const [x, y, z] = match.slice(2).map(Number);
    const atLeast = major > x || (major === x && (minor > y || (minor === y && patch >= z)));
    return atLeast && (match[1] === '>=' || major === x);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(satisfies(process.versions.node) ? 0 : 1);

// @vitest-environment node
/** One statement of the supported Node (package.json's engines), and every place that names a Node agrees with it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { satisfies, supportedNode } from '../cli/node-version.js';

const read = (file: string) => readFileSync(file, 'utf8');
/** The major lines the engines range opens: `^24.15.0 || >=26.0.0` → 24, 26. */
const lines = [...supportedNode.matchAll(/(?:\^|>=)(\d+)\./g)].map(([, major]) => Number(major));

describe('the supported Node', () => {
  it('is 24 from 24.15 and 26 on, nothing older', () => {
    expect(lines).toEqual([24, 26]);
    expect(['24.15.0', '24.21.0', '26.0.0', '27.1.0'].filter((v) => !satisfies(v))).toEqual([]);
    expect(['20.20.2', '22.22.2', '24.14.9', '25.9.0'].filter((v) => satisfies(v))).toEqual([]);
  });

  it('.nvmrc names a supported line, and the README states the range as package.json does', () => {
    const nvmrc = read('.nvmrc').trim();
    expect(lines).toContain(Number(nvmrc));
    expect(read('README.md')).toContain(`You need Node \`${supportedNode}\``);
    expect(read('docs/deploy.md')).toContain(`Build with Node \`${supportedNode}\``);
  });

  it('the Node .ci/run fetches is supported, and it asks cli/node-version.js, not a rule of its own', () => {
    const script = read('.ci/node.sh');
    expect(satisfies(/^NODE_PIN=(\S+)$/m.exec(script)![1])).toBe(true);
    expect(script).toMatch(/^ {2}node "[^\n]*\/cli\/node-version\.js"/m);
    expect(read('cli/main.js')).toContain("from './node-version.js'");
  });

  it('CI tests every supported line; the other workflows run on .nvmrc', () => {
    const ci = read('.github/workflows/ci.yml');
    const matrix = /node: \[([^\]]+)\]/.exec(ci)![1];
    expect(matrix.split(',').map((entry) => Number(/(\d+)\.x/.exec(entry)![1]))).toEqual(lines);
    for (const workflow of ['health', 'bench']) {
      const text = read(`.github/workflows/${workflow}.yml`);
      expect(text).toContain('node-version-file: .nvmrc');
      expect(text).not.toMatch(/node-version: /);
    }
  });
});

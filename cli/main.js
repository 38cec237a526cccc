/** npm run waitlist -- <command>, in plain JavaScript: an older Node is told so before TypeScript loads. */
import module from 'node:module';
import { satisfies, supportedNode } from './node-version.js';

if (!satisfies(process.versions.node)) {
  process.stderr.write(
    `waitlist: this is Node ${process.versions.node}; the command needs Node ${supportedNode}.\n` +
      'With nvm: `nvm install && nvm use` in this folder (it reads .nvmrc: Node 24).\n' +
      "Without: install Node 24 LTS from https://nodejs.org, or your system's package manager.\n",
  );
  process.exit(2);
}

// The program's modules, type-stripped and compiled, kept on disk: the next start is faster and lighter.
module.enableCompileCache();
await import('./program.ts');

/** A Vitest reporter (bench:tests): the slowest files, timed whole by Vitest's diagnostic (the json
 * reporter leaves out beforeAll and afterAll), and the slowest tests. */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { printSlowest } from './slowest.ts';

export default class VitestTimings implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const files = modules.map((module) => {
      const d = module.diagnostic();
      const file = `${relative(process.cwd(), module.moduleId)} [${module.project.name}]`;
      const tests = [...module.children.allTests()].map((test) => ({
        name: test.fullName,
        ms: test.diagnostic()?.duration ?? 0,
      }));
      return {
        file,
        ms: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        tests,
      };
    });
    printSlowest('Vitest', files);
  }
}

/**
 * A Vitest reporter for npm run bench:tests: each test file's whole time (environment, imports,
 * hooks and tests, as Vitest's own diagnostic counts it; the json reporter leaves out beforeAll
 * and afterAll) and each test's, written as JSON to VITEST_TIMINGS.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export type Timings = { file: string; ms: number; tests: { name: string; ms: number }[] }[];

export default class VitestTimings implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const timings: Timings = modules.map((module) => {
      const d = module.diagnostic();
      return {
        file: `${relative(process.cwd(), module.moduleId)} [${module.project.name}]`,
        ms: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        tests: [...module.children.allTests()].map((test) => ({
          name: test.fullName,
          ms: test.diagnostic()?.duration ?? 0,
        })),
      };
    });
    writeFileSync(process.env.VITEST_TIMINGS ?? 'vitest-timings.json', JSON.stringify(timings));
  }
}

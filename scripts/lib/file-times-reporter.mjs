// A Vitest reporter for scripts/test-profile.mjs: each test file's times as Vitest measured them (its
// hooks included, which the JSON reporter leaves out), written to VITEST_FILE_TIMES as JSON at the end.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FileTimesReporter {
  onTestRunEnd(testModules) {
    const out = process.env.VITEST_FILE_TIMES;
    if (!out) return;
    const files = testModules.map((module) => {
      const d = module.diagnostic();
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        tests: [...module.children.allTests()].length,
        // Import of the file and what it imports, suites collected; then its tests and hooks.
        collect: d.collectDuration / 1000,
        run: d.duration / 1000,
        environment: d.environmentSetupDuration / 1000,
        prepare: (d.prepareDuration + d.setupDuration) / 1000,
      };
    });
    writeFileSync(out, JSON.stringify(files, null, 2));
  }
}

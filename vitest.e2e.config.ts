import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The browser test files that take longest, longest first (seconds a file took in clean-clone runs of
 * npm test on 2026-12-04, the last at 53e2b25). Without a record of earlier runs Vitest starts the largest
 * files first, which put layout and documents among the last to start: the pass ended with one worker
 * busy and two idle, 198 s for 479 s of files on three workers. Files not named here follow, as Vitest
 * orders them.
 */
const LONGEST_FIRST = [
  'layout', // 83–103 s
  'documents', // 49–67 s, a server of its own
  'games', // 34–42 s
  'social', // 34–60 s, a server of its own
  'responsible-gambling', // 34–48 s
  'referral', // 30–35 s
  'wallet', // 25–36 s
  'house-games', // 26–32 s
  'fairness', // 22–32 s
  'profile', // 20–32 s
  'account', // 16–18 s
];

const rank = (file: TestSpecification) => {
  const index = LONGEST_FIRST.indexOf(basename(file.moduleId).replace(/\.test\.ts$/, ''));
  return index < 0 ? LONGEST_FIRST.length : index;
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    // Array.prototype.sort is stable: the files of one rank keep Vitest's order.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}

// Browser tests: one Chromium and one server process for the run (tests/e2e/global.ts), three files at a
// time. A browser test waits on its pages more than it computes: two files at a time used 1.3 of the two
// cores, and the pass took 153 s on a quiet machine against 127 s with three (1.7 cores) and 115 s with
// four; three leaves room for a slower machine. The files share their workers' processes (isolate: false):
// Vitest, Playwright's client and the helpers load once per worker, not once per file (the workers 23.2 ->
// 11.2 CPU s over the run, the run 122 -> 116 s); each file still connects and opens contexts of its own.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});

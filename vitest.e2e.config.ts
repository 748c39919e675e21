import { defineConfig } from 'vitest/config';

// Browser tests: one Chromium and one server process for the run (tests/e2e/global.ts), three files at a
// time. A browser test waits on its pages more than it computes: two files at a time used 1.3 of the two
// cores, and the pass took 153 s on a quiet machine against 127 s with three (1.7 cores) and 115 s with
// four; three leaves room for a slower machine.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 3,
  },
});

import { defineConfig } from 'vitest/config';

// Browser tests: one Chromium and one server process for the run (tests/e2e/global.ts), two files at a time.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});

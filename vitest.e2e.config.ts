import { defineConfig } from 'vitest/config';

// Browser tests: one file at a time (each drives a real Chromium against a real server process).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
  },
});

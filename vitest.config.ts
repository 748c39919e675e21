import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/unit/**/*.test.tsx',
      'tests/mbt/**/*.test.ts',
      'tests/mbt/**/*.test.tsx',
      'tests/server/**/*.test.ts',
      'tests/contract/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/global.ts'],
    setupFiles: ['tests/setup/dictionaries.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite clones and argon2 are CPU-bound: one worker per core.
    pool: 'forks',
    maxWorkers: 2,
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

/** What every test with a DOM starts with: the dictionaries, the async utilities' limit, and cleanup. */
const DOM_SETUP = ['tests/setup/dictionaries.ts', 'tests/setup/async-utils.ts', 'tests/setup/dom-cleanup.ts'];

/**
 * Four projects (scripts/test.mjs runs them in one pass):
 * - views: the views' tests (the .test.tsx files of tests/unit) in happy-dom, their files sharing a worker
 *   process, so React, the views and happy-dom are loaded and set up once per worker instead of once per
 *   file. What a test renders is unmounted after it (tests/setup/dom-cleanup.ts) and what it changes of
 *   the window (history, timers) it puts back itself.
 * - mbt: the model-based tests of tests/mbt, the same way, in a project of their own because they replace
 *   @xstate/react with its instrumented wrapper (a module mock outlives its file in a shared worker).
 * - logic: the rules, machines and the other tests of tests/unit in Node (*.test.ts), sharing processes.
 * - server: the server and contract tests. Their files share a worker process (isolate: false), so the
 *   server's modules, its compiled OpenAPI schemas' code and PGlite's WebAssembly are loaded once per
 *   worker instead of once per file; every file still gets databases and servers of its own. The
 *   migrated, seeded database they start from is built once per run by the global setup.
 * PGlite and argon2 are CPU-bound: one worker per core.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // What a test or a hook may take on a machine three times slower than the one they were measured on
    // (scripts/test.mjs prints the slowest of each pass beside its limit).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'views',
          include: ['tests/unit/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: DOM_SETUP,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'mbt',
          include: ['tests/mbt/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: DOM_SETUP,
          // Every file replaces @xstate/react with the same instrumented wrapper (tests/mbt/instrument.ts),
          // so the views a worker has loaded are instrumented for every file it runs next.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'logic',
          include: ['tests/unit/**/*.test.ts', 'tests/mbt/**/*.test.ts'],
          setupFiles: ['tests/setup/dictionaries.ts', 'tests/setup/async-utils.ts'],
          // Rules, machines and their actors in Node, no DOM and no module mocks: their files share a worker
          // process, so xstate, the machines and the rules are loaded once per worker instead of once per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts'],
          // Server processes sharing one PostgreSQL database, and PostgreSQL's own plans: only where there is one
          // (npm test's PostgreSQL pass).
          exclude: [
            ...configDefaults.exclude,
            ...(process.env.TEST_DATABASE_URL ? [] : ['tests/server/multi-instance.test.ts', 'tests/server/batch-plans.test.ts']),
          ],
          globalSetup: ['tests/setup/global.ts'],
          isolate: false,
        },
      },
    ],
  },
});

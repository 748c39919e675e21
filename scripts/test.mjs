// npm test: every layer of the project, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const started = Date.now();
const timings = [];

function step(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${title}: ${seconds} s`);
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal}) after ${seconds} s`);
    process.exit(1);
  }
}

step('Contract lint', bin('redocly'), ['lint', '--format=summary', 'openapi.yaml']);
step('Typecheck', bin('tsc'), ['--noEmit', '-p', '.']);
step('Lint', bin('eslint'), ['.']);
step('Reset contract coverage', bin('tsx'), ['scripts/check-contract-coverage.ts', '--reset']);
// Each Vitest pass also writes a JSON report, summed up in the closing line.
const reports = [];
function vitest(title, files, env = {}) {
  const report = `.tmp/vitest-${reports.length + 1}.json`;
  rmSync(report, { force: true });
  reports.push(report);
  step(title, bin('vitest'), ['run', ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
}

vitest('Unit, contract and server tests on PGlite', []);

let postgres = null;
let databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && postgresAvailable()) {
  console.log('\n=== Starting a throwaway PostgreSQL server from the installed binaries');
  postgres = await startPostgres();
  databaseUrl = postgres.url;
}
if (databaseUrl) {
  try {
    vitest('Server and contract tests on PostgreSQL', ['tests/server', 'tests/contract'], { TEST_DATABASE_URL: databaseUrl });
  } finally {
    postgres?.stop();
  }
} else {
  console.log('\n=== No PostgreSQL reachable (TEST_DATABASE_URL unset, no binaries): PostgreSQL tests skipped');
  if (process.env.CI) {
    console.error('CI must run the PostgreSQL tests.');
    process.exit(1);
  }
}
step('Contract coverage (operations called, error codes produced)', bin('tsx'), ['scripts/check-contract-coverage.ts']);
step('Build the SPA', bin('vite'), ['build', '--logLevel', 'warn']);
vitest('Browser tests (Chromium against the built SPA and the server)', ['--config', 'vitest.e2e.config.ts']);

let passed = 0;
let failed = 0;
for (const report of reports.filter((file) => existsSync(file))) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
}
console.log(`\n${timings.join('\n')}\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);

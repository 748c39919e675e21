// npm test: every layer of the project, two pairs of them side by side, stopping at the first failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
/**
 * What the passes make once and share (tests/setup/global.ts, tests/e2e/global.ts): the server built by
 * the first pass and its PGlite template, which the later passes take instead of building and migrating
 * anew. Removed when this run ends, however it ends.
 */
const runDir = `${process.cwd()}/.tmp/npm-test-${process.pid}`;
process.env.TEST_RUN_DIR = runDir;
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
/** The compiler npm run typecheck runs (package.json). */
const TYPESCRIPT = 'node_modules/typescript7/bin/tsc';
const started = Date.now();
/** What npm test may take on this 2-core machine, from a clean clone: the closing line compares with it. */
const BUDGET_SECONDS = 300;
/**
 * CPU seconds used so far by the processes this one waited for (and theirs): a stage's share of the two
 * cores, printed beside its wall time, tells a stage that waits from one that computes, and a machine
 * other work is sharing from one running npm test alone.
 */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}
const cpu = (c0, t0) => {
  const used = childCpuSeconds() - c0;
  return Number.isNaN(used) ? '' : `, CPU ${used.toFixed(0)} s = ${(used / ((Date.now() - t0) / 1000)).toFixed(2)} cores`;
};
const timings = [];
/** The stages' times so far and the run's against the budget: the end of every run, passed or failed. */
function timeAgainstBudget() {
  const total = (Date.now() - started) / 1000;
  const verdict = total <= BUDGET_SECONDS ? 'within' : `${(total - BUDGET_SECONDS).toFixed(0)} s over`;
  return `\nTime of each stage:\n${timings.join('\n')}\n${total.toFixed(0)} s in all${cpu(0, started)}: ${verdict} the budget of ${BUDGET_SECONDS} s`;
}
// scripts/test-profile.mjs sets it: the Vitest reports and the stages' times are kept there, for its table.
const profileDir = process.env.TEST_PROFILE_DIR;
const stages = [];
// Each Vitest pass also writes a JSON report, summed up in the closing line.
const reports = [];
const reportTitles = [];
if (profileDir) mkdirSync(profileDir, { recursive: true });
// Written after every stage, so a run that stops at a failure still leaves the times of what ran.
function writeProfile() {
  if (!profileDir) return;
  const data = { total: (Date.now() - started) / 1000, stages, reports: reports.map((file, i) => ({ file, title: reportTitles[i] })) };
  writeFileSync(`${profileDir}/stages.json`, JSON.stringify(data, null, 2));
}

function step(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
  const t0 = Date.now();
  const c0 = childCpuSeconds();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${title}: ${seconds} s${cpu(c0, t0)}`);
  stages.push({ title, start: (t0 - started) / 1000, seconds: Number(seconds), cpu: childCpuSeconds() - c0 });
  writeProfile();
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal}) after ${seconds} s`);
    console.error(timeAgainstBudget());
    process.exit(1);
  }
}

/** The arguments of a Vitest pass: its JSON report (summed up in the closing line) and, for test:profile, its file times. */
function vitestRun(title, files, env = {}) {
  const report = profileDir ? `${profileDir}/vitest-${reports.length + 1}.json` : `.tmp/vitest-${process.pid}-${reports.length + 1}.json`;
  rmSync(report, { force: true });
  reports.push(report);
  reportTitles.push(title);
  const profile = profileDir ? ['--reporter=./scripts/lib/file-times-reporter.mjs'] : [];
  const times = profileDir ? { VITEST_FILE_TIMES: `${profileDir}/files-${reports.length}.json` } : {};
  return [title, bin('vitest'), ['run', ...files, '--reporter=default', '--reporter=json', ...profile, `--outputFile.json=${report}`], { ...env, ...times }];
}

/**
 * Steps run side by side: the output of each of `others` printed whole as it ends, so it stays readable,
 * and `main`'s (if any) as it comes. The first failure stops the others (SIGTERM) and the run.
 */
async function together(title, others, main = null) {
  console.log(`\n=== ${title}: ${[...others.map(([name]) => name), ...(main ? [main[0]] : [])].join(', ')}`);
  const t0 = Date.now();
  const c0 = childCpuSeconds();
  const children = [];
  let failure = null;
  const run = ([name, command, args, env = {}], streamed) =>
    new Promise((resolve) => {
      const s0 = Date.now();
      const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: streamed ? 'inherit' : 'pipe' });
      children.push(child);
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      child.on('close', (code, signal) => {
        const seconds = ((Date.now() - s0) / 1000).toFixed(1);
        if (!streamed) console.log(`\n--- ${name}: ${[command, ...args].join(' ')} (${seconds} s)\n${output.trimEnd()}`);
        const result = { name, status: code ?? signal, seconds };
        if (result.status !== 0 && !failure) {
          failure = result;
          for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
        }
        resolve(result);
      });
    });
  const results = await Promise.all([...others.map((s) => run(s, false)), ...(main ? [run(main, true)] : [])]);
  stages.push({ title, start: (t0 - started) / 1000, seconds: (Date.now() - t0) / 1000, cpu: childCpuSeconds() - c0, parts: results.map((r) => ({ title: r.name, seconds: Number(r.seconds) })) });
  writeProfile();
  timings.push(`${title}: ${((Date.now() - t0) / 1000).toFixed(1)} s${cpu(c0, t0)} (${results.map((r) => `${r.name} ${r.seconds} s`).join(', ')})`);
  if (failure) {
    console.error(`\n${failure.name} failed (exit ${failure.status})`);
    console.error(timeAgainstBudget());
    process.exit(1);
  }
}

step('Reset contract coverage', bin('tsx'), ['scripts/check-contract-coverage.ts', '--reset']);
// The checks that only read the sources, and the SPA's build, beside the first Vitest pass, in the part of
// the two cores it leaves idle while its workers wait on databases and servers of their own (together
// 150–155 s, one after the other 163 s: docs/performance.md).
await together(
  'Contract lint, typecheck, lint and the SPA build, beside the unit, contract and server tests on PGlite',
  [
    ['Contract lint', bin('redocly'), ['lint', '--format=summary', 'openapi.yaml']],
    // TypeScript 7 (package typescript7; ESLint's parser keeps typescript 5), one thread: its checkers
    // in parallel only contend with the tests for the two cores.
    ['Typecheck', process.execPath, [TYPESCRIPT, '--noEmit', '-p', '.', '--singleThreaded']],
    ['Lint', bin('eslint'), ['.']],
    ['Build the SPA', bin('vite'), ['build', '--logLevel', 'warn']],
  ],
  vitestRun('Unit, contract and server tests on PGlite', []),
);

let postgres = null;
let databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && postgresAvailable()) {
  console.log('\n=== Starting a throwaway PostgreSQL server from the installed binaries');
  postgres = await startPostgres();
  databaseUrl = postgres.url;
}
/**
 * The files whose behaviour can differ between PGlite and a PostgreSQL server, run again on the latter.
 * PGlite is one connection: its transactions never overlap, so row locks, races between requests,
 * serialisation and the connection pool are only exercised on PostgreSQL; and the two drivers decode
 * NUMERIC, int8 and timestamps separately, which money and history depend on. The rest (catalogue and
 * common reads, mail, identity providers, the payment provider's client, the contract's plumbing and bad
 * input, the processes) runs the same SQL on the same engine through one code path, once.
 */
const POSTGRESQL_FILES = [
  'accounts', // accounts and sessions: uniqueness in any case, tokens, limits on the server clock
  'activity', // deposits and withdrawals in flight or ended within a day: time windows and an optional typed filter
  'batch-plans', // the batch functions' plans, cached while the tables were small: every row found by its key
  'bonuses', // claims, wagering, forfeits and expiry moving money
  'catalogue-queries', // the listing's plans at 10,000 games, its counts kept by triggers under concurrent changes
  'deposit-limits-credit', // deposits over a deposit limit held apart, released as time windows pass, withdrawn
  'deposits', // webhooks crediting a wallet once, replays, a restart
  'documents', // two uploads at once for one player
  'events', // live updates announced by the database: two server instances, each with its own LISTEN connection
  'fuzz', // junk sent to every operation: the drivers refuse other text (NUL, encodings) with other errors
  'game-wallet', // bets and wins, 100 concurrent bets against one balance
  'house-games', // the built-in provider's rounds through the wallet over HTTP, concurrent rounds taking nonces
  'ledger', // the double-entry ledger, its triggers and concurrent postings
  'login-limits', // rate-limit counters and wrong-password delays taken by concurrent requests, signing keys in the database
  'money-properties', // random money operations against the model
  'multi-instance', // two server processes on one database: limits, tokens, revocation, one pending withdrawal, live events
  'player-requests-migration', // migration 0014 over old Idempotency-Key records: sha256() in SQL, dropped columns
  'profile', // wallet selections and image uploads at once
  'provider-amounts', // providers' amounts capped per call, ledger totals past one NUMERIC(30,8) column
  'reference-checks', // the money tables' foreign keys: refusals by name on every path, the batches' writes, no setting skipping them
  'referrals', // which friends qualify, and two referral claims at once paying once
  'reconcile', // withdrawals settled with the provider: runs at once claiming rows with SKIP LOCKED, the command beside the server
  'responsible-gambling', // limits summed over money rows in time windows, self-exclusion
  'seed-pairs-migration', // migration 0034 over seed pairs of before: next server seeds drawn and hashed in SQL
  'schema-objects-migration', // a database of before migration 0031 with money in it upgraded to today's functions and triggers (server/db/schema/)
  'shutdown', // npm start stopped: its pool and LISTEN connection ended; a stop while 20 players bet leaves no round pending, a kill -9 the ledger whole
  'transactions', // history paging and filters over money rows
  'uploads', // images decoded and encoded anew, their files and rows written together
  'withdrawals', // 50 concurrent withdrawals against one balance
].map((name) => `tests/server/${name}.test.ts`);

const browserTests = vitestRun('Browser tests (Chromium against the built SPA and the server)', ['--config', 'vitest.e2e.config.ts']);
if (databaseUrl) {
  // The browser tests wait on their pages more than they compute (1.6 of the two cores alone): the PostgreSQL
  // pass, in the cores they leave, ends before them (both together 121–155 s, one after the other 158 s: docs/performance.md).
  await together(
    'Server tests on PostgreSQL, beside the browser tests',
    [vitestRun('Server tests on PostgreSQL', ['--project', 'server', ...POSTGRESQL_FILES], { TEST_DATABASE_URL: databaseUrl })],
    browserTests,
  );
  postgres?.stop();
} else {
  console.log('\n=== No PostgreSQL reachable (TEST_DATABASE_URL unset, no binaries): PostgreSQL tests skipped');
  if (process.env.CI) {
    console.error('CI must run the PostgreSQL tests.');
    process.exit(1);
  }
  await together('Browser tests', [], browserTests);
}
step('Contract coverage (operations called, error codes produced)', bin('tsx'), ['scripts/check-contract-coverage.ts']);

writeProfile();

let passed = 0;
let failed = 0;
const slowest = [];
// The PostgreSQL pass runs some tests a second time: the distinct tests are counted apart from the runs.
const distinct = new Set();
for (const [index, report] of reports.entries()) {
  if (!existsSync(report)) continue;
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  let worst = null;
  for (const file of json.testResults) {
    for (const test of file.assertionResults) {
      distinct.add(`${file.name} > ${test.fullName}`);
      if ((test.duration ?? 0) > (worst?.duration ?? -1)) worst = { ...test, file: file.name.replace(`${process.cwd()}/`, '') };
    }
  }
  if (!profileDir) rmSync(report, { force: true });
  if (worst) slowest.push(`${reportTitles[index]}: ${(worst.duration / 1000).toFixed(1)} s, ${worst.file} > ${worst.title}`);
}
// Timeouts are set to hold on a machine three times slower (vitest.config.ts, vitest.e2e.config.ts): the
// slowest test of each pass, to compare with them.
console.log(`\nSlowest test of each pass:\n${slowest.join('\n')}`);
console.log(`${timeAgainstBudget()}; all checks passed`);
console.log(`${passed} passed, ${failed} failed (${distinct.size} distinct tests; the rest are the PostgreSQL pass running tests again)`);

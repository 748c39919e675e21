// npm run test:profile: where npm test's time goes. Runs npm test (scripts/test.mjs) keeping its Vitest
// reports, then prints each stage's wall time and, per Vitest pass, every test file's wall time, slowest
// first, with the sum per project. `--read DIR` prints the table of an earlier run's folder again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const readAt = process.argv.indexOf('--read');
const dir = resolve(readAt >= 0 ? process.argv[readAt + 1] : `.tmp/test-profile-${process.pid}`);
let status = 0;
if (readAt < 0) {
  const run = spawnSync(process.execPath, ['scripts/test.mjs'], { stdio: 'inherit', env: { ...process.env, TEST_PROFILE_DIR: dir } });
  status = run.status ?? 1;
}
const stagesFile = `${dir}/stages.json`;
if (!existsSync(stagesFile)) {
  console.error(`no stages recorded in ${dir}`);
  process.exit(1);
}
const { total, stages, reports } = JSON.parse(readFileSync(stagesFile, 'utf8'));
const s = (seconds) => `${seconds.toFixed(1).padStart(7)} s`;

console.log(`\n##### Profile of npm test (${dir})\n\nStages (start, wall time):`);
for (const stage of stages) {
  console.log(`${s(stage.start)}  ${s(stage.seconds)}  ${stage.title}`);
  for (const part of stage.parts ?? []) console.log(`${' '.repeat(20)}${s(part.seconds)}  ${part.title}`);
}
console.log(`${' '.repeat(10)}${s(total)}  total`);

const project = (file) => (/^tests\/(unit|mbt)\//.test(file) ? 'unit' : /^tests\/e2e\//.test(file) ? 'browser' : 'server');
for (const { file, title } of reports) {
  if (!existsSync(file)) continue;
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const files = json.testResults.map((result) => ({
    name: relative(process.cwd(), result.name),
    seconds: (result.endTime - result.startTime) / 1000,
    tests: result.assertionResults.length,
    slowest: result.assertionResults.reduce((worst, test) => ((test.duration ?? 0) > (worst?.duration ?? -1) ? test : worst), null),
  }));
  files.sort((a, b) => b.seconds - a.seconds);
  const sums = {};
  for (const f of files) sums[project(f.name)] = (sums[project(f.name)] ?? 0) + f.seconds;
  console.log(`\n${title}: ${files.length} files, ${json.numTotalTests} tests; file time summed: ${Object.entries(sums).map(([p, t]) => `${p} ${t.toFixed(1)} s`).join(', ')}`);
  for (const f of files) {
    const worst = f.slowest ? `  slowest ${((f.slowest.duration ?? 0) / 1000).toFixed(1)} s: ${f.slowest.title}` : '';
    console.log(`${s(f.seconds)}  ${String(f.tests).padStart(4)} tests  ${f.name}${worst}`);
  }
}
process.exit(status);

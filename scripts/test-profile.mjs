// npm run test:profile: where npm test's time goes. Runs npm test (scripts/test.mjs) keeping its Vitest
// reports, then prints each stage's wall time and, per Vitest pass, every test file's wall time, slowest
// first, with the sum per project. `--read DIR` prints the table of an earlier run's folder again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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

console.log(`\n##### Profile of npm test (${dir})\n\nStages (start, wall time, CPU time of its processes and their share of the 2 cores):`);
for (const stage of stages) {
  const cpu = stage.cpu === undefined || stage.cpu === null ? ' '.repeat(22) : `${s(stage.cpu)} ${(stage.cpu / stage.seconds).toFixed(2).padStart(5)} cores`;
  console.log(`${s(stage.start)}  ${s(stage.seconds)}  ${cpu}  ${stage.title}`);
  for (const part of stage.parts ?? []) console.log(`${' '.repeat(20)}${s(part.seconds)}  ${' '.repeat(22)}  ${part.title}`);
}
console.log(`${' '.repeat(10)}${s(total)}  total`);

for (const [index, { file, title }] of reports.entries()) {
  const timesFile = `${dir}/files-${index + 1}.json`;
  if (!existsSync(timesFile)) {
    if (existsSync(file)) console.log(`\n${title}: no file times recorded`);
    continue;
  }
  const files = JSON.parse(readFileSync(timesFile, 'utf8')).map((f) => ({ ...f, total: f.run + f.collect + f.environment + f.prepare }));
  files.sort((a, b) => b.total - a.total);
  const sums = {};
  for (const f of files) {
    const sum = (sums[f.project || 'browser'] ??= { files: 0, total: 0, run: 0, collect: 0, environment: 0 });
    sum.files += 1;
    for (const key of ['total', 'run', 'collect', 'environment']) sum[key] += f[key];
  }
  console.log(`\n${title}: ${files.length} files, ${files.reduce((n, f) => n + f.tests, 0)} tests`);
  for (const [name, sum] of Object.entries(sums)) {
    console.log(`  ${name}: ${sum.files} files, ${sum.total.toFixed(1)} s of worker time (tests and hooks ${sum.run.toFixed(1)} s, imports ${sum.collect.toFixed(1)} s, environments ${sum.environment.toFixed(1)} s)`);
  }
  console.log(`${'total'.padStart(9)}  ${'tests+hooks'.padStart(11)}  ${'import'.padStart(9)}  tests  file`);
  for (const f of files) {
    console.log(`${s(f.total)}  ${s(f.run).padStart(11)}  ${s(f.collect)}  ${String(f.tests).padStart(5)}  ${f.file}`);
  }
}
process.exit(status);

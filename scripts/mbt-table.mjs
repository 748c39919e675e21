// npm run test:mbt: the model-based tests (tests/mbt), then their coverage table.
//   node scripts/mbt-table.mjs --run   runs Vitest on tests/mbt first (what test:mbt does)
//   node scripts/mbt-table.mjs         prints the table of the last run
// Each machine's model test writes test-results/mbt/<machine>.json; the table is also written, merged,
// to test-results/mbt-coverage.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join('test-results', 'mbt');
let status = 0;
if (process.argv.includes('--run')) {
  rmSync(dir, { recursive: true, force: true });
  const result = spawnSync('node_modules/.bin/vitest', ['run', 'tests/mbt'], { stdio: 'inherit' });
  status = result.status ?? 1;
}

const files = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.json') && !file.startsWith('_')) : [];
const reports = files.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8'))).sort((a, b) => a.machine.localeCompare(b.machine));
const gate = existsSync(join(dir, '_gate.json')) ? JSON.parse(readFileSync(join(dir, '_gate.json'), 'utf8')) : null;

const rows = [['machine', 'states', 'transitions', 'paths', 'steps', 'time']];
for (const report of reports) {
  rows.push([
    report.machine,
    `${report.states.covered}/${report.states.total}`,
    `${report.transitions.covered}/${report.transitions.total}`,
    String(report.paths),
    String(report.steps),
    `${(report.ms / 1000).toFixed(1)} s`,
  ]);
}
for (const [name, reason] of Object.entries(gate?.pending ?? {})) rows.push([name, 'pending', '', '', '', reason]);
for (const name of gate?.missing ?? []) rows.push([name, 'NO MODEL TEST', '', '', '', '']);

const widths = rows[0].map((_, column) => Math.max(...rows.filter((row) => row[column].length < 40).map((row) => row[column].length)));
const line = (row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
console.log(`\nModel-based tests: states and transitions taken by paths whose view assertions passed\n`);
console.log(line(rows[0]));
console.log(widths.map((width) => '─'.repeat(width)).join('  '));
for (const row of rows.slice(1)) console.log(line(row));
const totalMs = reports.reduce((sum, report) => sum + report.ms, 0);
console.log(`\n${reports.length} machines, ${reports.reduce((sum, r) => sum + r.paths, 0)} paths, ${(totalMs / 1000).toFixed(1)} s building models and running paths`);

const incomplete = reports.filter(
  (report) => report.states.covered < report.states.total || report.transitions.covered < report.transitions.total,
);
for (const report of incomplete) {
  console.log(`\n${report.machine} leaves out:`);
  for (const state of report.uncoveredStates) console.log(`  state ${state}`);
  for (const transition of report.uncoveredTransitions) console.log(`  ${transition}`);
}

writeFileSync(
  join('test-results', 'mbt-coverage.json'),
  `${JSON.stringify({ machines: reports, pending: gate?.pending ?? {}, missing: gate?.missing ?? [] }, null, 2)}\n`,
);
if (reports.length === 0) {
  console.error('No model test reports: run with --run (npm run test:mbt).');
  status ||= 1;
}
if (incomplete.length > 0 || (gate?.missing ?? []).length > 0) status ||= 1;
process.exit(status);

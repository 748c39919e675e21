/**
 * Contract coverage gate: did the tests exercise the whole of openapi.yaml?
 *
 *   npx tsx scripts/check-contract-coverage.ts           check .tmp/contract-coverage/*.jsonl
 *   npx tsx scripts/check-contract-coverage.ts --reset   delete the records (before a test run)
 *
 * The test helpers (tests/helpers/contract.ts) append one record per response: operationId, status and
 * error code. The check fails (exit 1), listing what is missing, unless
 *   (i)  every operation of openapi.yaml answered a test with a 2xx at least once (simulator ones too);
 *   (ii) every error code the server can produce was produced by some test. "Can produce" is read from
 *        the source: a string literal in server/**\/*.ts that is a member of ErrorCode in openapi.yaml.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listOperations, loadOpenApi } from '../server/http/openapi.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const coverageDir = join(root, '.tmp', 'contract-coverage');
const serverDir = join(root, 'server');

if (process.argv.includes('--reset')) {
  rmSync(coverageDir, { recursive: true, force: true });
  console.log(`removed ${relative(root, coverageDir)}`);
  process.exit(0);
}

interface CoverageRecord {
  operationId: string;
  status: number;
  code: string | null;
}

function readRecords(): { records: CoverageRecord[]; files: number; malformed: number } {
  if (!existsSync(coverageDir)) return { records: [], files: 0, malformed: 0 };
  const records: CoverageRecord[] = [];
  let files = 0;
  let malformed = 0;
  for (const name of readdirSync(coverageDir)) {
    if (!name.endsWith('.jsonl')) continue;
    files += 1;
    for (const line of readFileSync(join(coverageDir, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as CoverageRecord;
        if (typeof record.operationId === 'string' && typeof record.status === 'number') records.push(record);
        else malformed += 1;
      } catch {
        // A worker killed mid-write leaves a partial last line.
        malformed += 1;
      }
    }
  }
  return { records, files, malformed };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Where each ErrorCode appears as a string literal in the server's source: code → ["file:line", ...]. */
function codesInServer(errorCodes: Set<string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const literal = /(['"`])([A-Za-z_]+)\1/g;
  for (const file of sourceFiles(serverDir)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, index) => {
      if (/^\s*(\/\/|\*)/.test(text)) return; // comments name codes without producing them
      for (const match of text.matchAll(literal)) {
        const code = match[2]!;
        if (!errorCodes.has(code)) continue;
        const where = `${relative(root, file)}:${index + 1}`;
        found.set(code, [...(found.get(code) ?? []), where]);
      }
    });
  }
  return found;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

const spec = loadOpenApi();
const operations = listOperations(spec);
const errorCodes = new Set((spec.components.schemas?.ErrorCode as { enum?: string[] } | undefined)?.enum ?? []);
const { records, files, malformed } = readRecords();

console.log(`contract coverage: ${records.length} responses from ${files} file(s) in ${relative(root, coverageDir)}`);
if (malformed) console.log(`  (${malformed} malformed line(s) ignored)`);
if (records.length === 0) {
  console.log('no coverage records: run the tests first (npx vitest run), after --reset');
  process.exit(1);
}

// (i) operations
const statusesByOperation = new Map<string, Set<number>>();
for (const record of records) {
  statusesByOperation.set(record.operationId, (statusesByOperation.get(record.operationId) ?? new Set()).add(record.status));
}
const missingOperations: string[] = [];
for (const { operationId, operation } of operations) {
  const statuses = statusesByOperation.get(operationId) ?? new Set<number>();
  const covered = [...statuses].some((status) => status >= 200 && status < 300);
  if (!covered) {
    const seen = statuses.size ? `answered only ${[...statuses].sort().join(', ')}` : 'never called';
    const tag = operation.tags?.includes('simulator') ? ' (simulator)' : '';
    missingOperations.push(`${operationId}${tag}: needs a 2xx, ${seen}`);
  }
}
const unknownOperations = [...statusesByOperation.keys()].filter((id) => !operations.some((op) => op.operationId === id));

// (ii) error codes
const producible = codesInServer(errorCodes);
const produced = new Map<string, { count: number; operations: Set<string> }>();
for (const record of records) {
  if (!record.code) continue;
  const entry = produced.get(record.code) ?? { count: 0, operations: new Set<string>() };
  entry.count += 1;
  entry.operations.add(record.operationId);
  produced.set(record.code, entry);
}

const rows = [['code', 'tested', 'produced by tests (responses: operations)', 'raised in server']];
const missingCodes: string[] = [];
for (const code of [...errorCodes].sort()) {
  const where = producible.get(code);
  const hit = produced.get(code);
  if (!where && !hit) continue;
  if (where && !hit) missingCodes.push(code);
  const operationsList = hit ? [...hit.operations].sort() : [];
  const shownOps = operationsList.length > 3 ? `${operationsList.slice(0, 3).join(', ')} +${operationsList.length - 3}` : operationsList.join(', ');
  const shownWhere = where ? `${where.slice(0, 2).join(', ')}${where.length > 2 ? ` +${where.length - 2}` : ''}` : '(not found in server source)';
  rows.push([code, hit ? 'yes' : 'NO', hit ? `${hit.count}: ${shownOps}` : '-', shownWhere]);
}
console.log('\nerror codes the server can produce:');
console.log(table(rows));

const unused = [...errorCodes].filter((code) => !producible.has(code) && !produced.has(code)).sort();
if (unused.length) console.log(`\nErrorCode members the server never raises (not required): ${unused.join(', ')}`);
const undeclared = [...produced.keys()].filter((code) => !errorCodes.has(code));
if (undeclared.length) console.log(`\ncodes produced that are not in ErrorCode: ${undeclared.join(', ')}`);
if (unknownOperations.length) console.log(`\nrecords for operations no longer in openapi.yaml: ${unknownOperations.join(', ')}`);

const coveredOperations = operations.length - missingOperations.length;
const coveredCodes = producible.size - missingCodes.length;
console.log('\nsummary:');
console.log(`  operations covered ${coveredOperations}/${operations.length}`);
console.log(`  codes covered      ${coveredCodes}/${producible.size}`);

if (missingOperations.length || missingCodes.length) {
  if (missingOperations.length) console.log(`\noperations not covered:\n${missingOperations.map((line) => `  - ${line}`).join('\n')}`);
  if (missingCodes.length) {
    console.log(
      `\nerror codes never produced by a test:\n${missingCodes.map((code) => `  - ${code} (${producible.get(code)!.join(', ')})`).join('\n')}`,
    );
  }
  process.exit(1);
}
console.log('\ncontract coverage complete');

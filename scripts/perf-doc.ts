/**
 * docs/performance.md's tables, written from the benchmarks' records in bench/ rather than by hand:
 *
 *   npm run perf:doc                               rewrites the tables between the perf-doc markers
 *   npm run perf:doc -- --check                    exits 1 when the tables differ from the records
 *   npm run bench:grid | npm run perf:doc -- --record grid     keeps a run's output as bench/grid.json
 *   npm run rtp | npm run perf:doc -- --record rtp             ... as bench/rtp.json
 *   npm run perf:doc -- --record audit-web         keeps test-results/audit-web.json as bench/audit-web.json
 *
 * `npm run bench:server` writes its own record, bench/results.json. A record read from a run's output
 * gets the date, the commit and the machine of the moment it is recorded, so record right after the run.
 * The text outside the markers (<!-- perf-doc: NAME --> ... <!-- /perf-doc -->) is the document's own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

const DOC = 'docs/performance.md';

interface Machine {
  cpus: number;
  cpu: string;
  node?: string;
}

interface Recorded {
  date: string | null;
  commit?: string | null;
  machine: Machine;
  note?: string;
}

interface ServerRow {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  latencyOnly?: boolean;
  serverCpuMsPerUnit?: number;
  postgresCpuMsPerUnit?: number;
  loadCpuMsPerUnit?: number;
  ratioToPgbenchTps?: number;
  scalingFromOneProcess?: number;
}

interface Pgbench {
  tps: number;
  clients: number;
}

interface ServerRecord extends Recorded {
  settings: { durationSeconds: number; concurrency: number; games: number };
  backends: { pglite?: ServerRow[]; postgres?: ServerRow[] };
  pgbench?: Pgbench;
  pgbenchBeforeLoad?: Pgbench;
  pgbenchAtCapacity?: Pgbench;
  statements?: { call: string; sent: number; nested: number; foreignKeyChecks: number }[];
}

interface GridRecord extends Recorded {
  total: number;
  seeded: number;
  widthPx: number;
  cpuSlowdown: number;
  seconds: number;
  mostTiles: number;
  /** Long tasks (over 50 ms) after the first page, until a second after the end. */
  longTasks: number;
  longTaskMedianMs: number | null;
  longestTaskMs: number | null;
}

interface AuditFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
}

interface AuditRecord extends Recorded {
  runs: number;
  results: { target: { name: string; path: string }; figures: AuditFigures }[];
}

interface RtpRow {
  game: string;
  configuration: string;
  rounds: number;
  hitRate: string;
  measured: string;
  interval: string;
  exact: string;
  declared: string;
  outside: boolean;
}

interface RtpRecord extends Recorded {
  rows: RtpRow[];
  seconds: number;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function readJson<T>(path: string): T | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : null;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(2));

function provenance(record: Recorded, command: string): string {
  const when = record.date ? record.date.slice(0, 10) : 'date not recorded';
  const at = record.commit ? ` at ${record.commit}` : '';
  const machine = `${record.machine.cpus} cores (${record.machine.cpu}${record.machine.node ? `, Node ${record.machine.node}` : ''})`;
  return `\`${command}\`, ${when}${at}, ${machine}.${record.note ? ` ${record.note}` : ''}`;
}

function serverSection(record: ServerRecord): string {
  const postgres = record.backends.postgres ?? [];
  const pglite = new Map((record.backends.pglite ?? []).map((row) => [row.scenario, row]));
  const pgbench = [record.pgbenchBeforeLoad, record.pgbench, record.pgbenchAtCapacity]
    .filter((run): run is Pgbench => run !== undefined)
    .map((run, index) => `${run.tps.toLocaleString('en-US')} tps (${run.clients} clients, ${['before the load', 'after it', 'after it'][index]})`);
  const lines = [
    // The record's own note explains its fields; the paragraph below says the same for a reader.
    provenance({ date: record.date, commit: record.commit ?? null, machine: record.machine }, 'npm run bench:server'),
    `${record.settings.concurrency} players or connections unless the scenario says otherwise, ${record.settings.durationSeconds} s a scenario, ` +
      `${count(record.settings.games)} games in the catalogue; pgbench (TPC-B-like) on the same PostgreSQL: ${pgbench.join(', ')}.`,
    '',
    '| scenario | PGlite: per s, p50 / p99 ms | PostgreSQL: per s, p50 / p99 ms | ÷ best pgbench | PostgreSQL: CPU ms a unit, server / PostgreSQL / load generator |',
    '| --- | --- | --- | --- | --- |',
  ];
  const seen = new Set<string>();
  const row = (scenario: string, lite: ServerRow | undefined, pg: ServerRow | undefined) => {
    const cell = (r: ServerRow | undefined) => (r ? `${r.latencyOnly ? '' : `${count(r.requestsPerSecond)}, `}${ms(r.p50Ms)} / ${ms(r.p99Ms)}` : '');
    const ratio = pg?.ratioToPgbenchTps === undefined ? '' : pg.ratioToPgbenchTps.toFixed(3);
    const scaling = pg?.scalingFromOneProcess === undefined ? '' : ` (${pg.scalingFromOneProcess.toFixed(2)}× one process)`;
    const cpu = pg && !pg.latencyOnly ? `${ms(pg.serverCpuMsPerUnit)} / ${ms(pg.postgresCpuMsPerUnit)} / ${ms(pg.loadCpuMsPerUnit)}` : '';
    lines.push(`| ${scenario} | ${cell(lite)} | ${cell(pg)}${scaling} | ${ratio} | ${cpu} |`);
  };
  for (const pg of postgres) {
    seen.add(pg.scenario);
    row(pg.scenario, pglite.get(pg.scenario), pg);
  }
  for (const [scenario, lite] of pglite) if (!seen.has(scenario)) row(scenario, lite, undefined);
  if (record.statements?.length) {
    lines.push('', 'SQL statements a call (pg_stat_statements), sent by the server / run inside them / foreign-key checks:');
    lines.push(record.statements.map((s) => `${s.call} ${s.sent} / ${s.nested} / ${s.foreignKeyChecks}`).join('; ') + '.');
  }
  return lines.join('\n');
}

function gridSection(record: GridRecord): string {
  const longTasks =
    record.longTasks === 0 ? 'none' : `${record.longTasks} (median ${record.longTaskMedianMs ?? '?'} ms, longest ${record.longestTaskMs ?? '?'} ms)`;
  return [
    provenance(record, 'npm run build && npm run bench:grid'),
    '',
    '| games | screen | processor | scrolled to the end in | most tiles in the page | long tasks after the first page |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${count(record.total)} (${count(record.seeded)} seeded) | ${record.widthPx} px | ${record.cpuSlowdown}× slower | ${record.seconds.toFixed(1)} s | ${record.mostTiles} | ${longTasks} |`,
  ].join('\n');
}

function auditSection(record: AuditRecord): string {
  const lines = [
    provenance(record, 'npm run audit:web'),
    `Lighthouse, mobile settings, the median of ${record.runs} runs a page.`,
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | JS on the wire |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { target, figures: f } of record.results) {
    lines.push(
      `| ${target.name} (${target.path}) | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${f.seo} | ${(f.lcpMs / 1000).toFixed(2)} s | ` +
        `${Math.round(f.tbtMs)} ms | ${f.cls.toFixed(3)} | ${f.jsKb.toFixed(1)} KB |`,
    );
  }
  return lines.join('\n');
}

function rtpSection(record: RtpRecord): string {
  const games = [...new Set(record.rows.map((row) => row.game))];
  const span = (values: string[]) => {
    const numbers = values.map((value) => Number.parseFloat(value));
    const low = values[numbers.indexOf(Math.min(...numbers))];
    const high = values[numbers.indexOf(Math.max(...numbers))];
    return low === high ? `${low}` : `${low} – ${high}`;
  };
  const lines = [
    provenance(record, 'npm run rtp'),
    `${record.rows.length} configurations, ${count(record.rows.reduce((sum, row) => sum + row.rounds, 0))} rounds in ${record.seconds.toFixed(1)} s; ` +
      'every configuration is listed in [fairness.md](fairness.md#measured-returns).',
    '',
    '| game | configurations | rounds each | measured return | exact return | declared | exact value outside the 95 % interval |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const game of games) {
    const rows = record.rows.filter((row) => row.game === game);
    const rounds = [...new Set(rows.map((row) => count(row.rounds)))].join(', ');
    const declared = [...new Set(rows.map((row) => row.declared))].join(', ');
    lines.push(
      `| ${game} | ${rows.length} | ${rounds} | ${span(rows.map((row) => row.measured))} | ${span(rows.map((row) => row.exact))} | ${declared} | ` +
        `${rows.filter((row) => row.outside).length} |`,
    );
  }
  return lines.join('\n');
}

function sections(): Map<string, string> {
  const out = new Map<string, string>();
  const server = readJson<ServerRecord>('bench/results.json');
  if (server) out.set('bench-server', serverSection(server));
  const grid = readJson<GridRecord>('bench/grid.json');
  if (grid) out.set('bench-grid', gridSection(grid));
  const audit = readJson<AuditRecord>('bench/audit-web.json');
  if (audit) out.set('audit-web', auditSection(audit));
  const rtp = readJson<RtpRecord>('bench/rtp.json');
  if (rtp) out.set('rtp', rtpSection(rtp));
  return out;
}

function render(document: string): string {
  const generated = sections();
  const used = new Set<string>();
  const result = document.replace(/<!-- perf-doc: ([a-z-]+) -->\n[\s\S]*?<!-- \/perf-doc -->/g, (whole, name: string) => {
    const body = generated.get(name);
    if (body === undefined) fail(`${DOC} has a perf-doc section "${name}" with no record in bench/`);
    used.add(name);
    return `<!-- perf-doc: ${name} -->\n${body}\n<!-- /perf-doc -->`;
  });
  const missing = [...generated.keys()].filter((name) => !used.has(name));
  if (missing.length > 0) fail(`${DOC} has no perf-doc section for ${missing.join(', ')}`);
  return result;
}

function now(): Pick<Recorded, 'date' | 'commit' | 'machine'> {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  const processors = cpus();
  return {
    date: new Date().toISOString(),
    commit: commit.status === 0 ? commit.stdout.trim() : null,
    machine: { cpus: processors.length, cpu: processors[0]?.model.trim() ?? 'unknown', node: process.version },
  };
}

function parseGrid(output: string): GridRecord {
  const head = /All games, ([\d,]+) games \(([\d,]+) seeded\), (\d+) px, CPU (\d+)× slower: .* after ([\d.]+) s/.exec(output);
  const tiles = /tiles in the page at most: (\d+)/.exec(output);
  const tasks = /long tasks after the first page: (\d+)/.exec(output);
  if (!head || !tiles || !tasks) fail('No bench:grid result in the input (pipe `npm run bench:grid` into this command)');
  const number = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
  const durations = /\(median (\d+) ms, longest (\d+) ms/.exec(output);
  return {
    ...now(),
    total: number(head[1]),
    seeded: number(head[2]),
    widthPx: number(head[3]),
    cpuSlowdown: number(head[4]),
    seconds: Number(head[5]),
    mostTiles: number(tiles[1]),
    longTasks: number(tasks[1]),
    longTaskMedianMs: durations ? number(durations[1]) : null,
    longestTaskMs: durations ? number(durations[2]) : null,
  };
}

function parseRtp(output: string): RtpRecord {
  const rows: RtpRow[] = [];
  const line = /^(dice|limbo|mines|plinko|slot)\s{2,}(\S.*?)\s{2,}([\d,]+)\s+([\d.]+ %)\s+([\d.]+ %)\s+([\d.]+ % – [\d.]+ %)\s+([\d.]+ %)\s+(\S.*?)(\s+outside)?$/;
  for (const text of output.split('\n')) {
    const match = line.exec(text.trimEnd());
    if (!match) continue;
    rows.push({
      game: match[1]!,
      configuration: match[2]!,
      rounds: Number(match[3]!.replace(/,/g, '')),
      hitRate: match[4]!,
      measured: match[5]!,
      interval: match[6]!,
      exact: match[7]!,
      declared: match[8]!,
      outside: match[9] !== undefined,
    });
  }
  const summary = /rounds in ([\d.]+) s;/.exec(output);
  if (rows.length === 0 || !summary) fail('No rtp result in the input (pipe `npm run rtp` into this command)');
  return { ...now(), rows, seconds: Number(summary[1]) };
}

function record(kind: string): void {
  if (kind === 'audit-web') {
    const run = readJson<Omit<AuditRecord, keyof Recorded>>('test-results/audit-web.json');
    if (!run) fail('No test-results/audit-web.json: run npm run audit:web first');
    const saved: AuditRecord = { ...now(), runs: run.runs, results: run.results.map(({ target, figures }) => ({ target: { name: target.name, path: target.path }, figures })) };
    writeFileSync('bench/audit-web.json', `${JSON.stringify(saved, null, 2)}\n`);
    return;
  }
  const input = readFileSync(0, 'utf8');
  if (kind === 'grid') writeFileSync('bench/grid.json', `${JSON.stringify(parseGrid(input), null, 2)}\n`);
  else if (kind === 'rtp') writeFileSync('bench/rtp.json', `${JSON.stringify(parseRtp(input), null, 2)}\n`);
  else fail(`--record takes grid, rtp or audit-web, not "${kind}"`);
}

const args = process.argv.slice(2);
const recordAt = args.indexOf('--record');
if (recordAt >= 0) record(args[recordAt + 1] ?? fail('--record needs grid, rtp or audit-web'));
const current = readFileSync(DOC, 'utf8');
const next = render(current);
if (args.includes('--check')) {
  if (next !== current) {
    console.error(`${DOC} is not what bench/*.json say: run npm run perf:doc`);
    process.exit(1);
  }
  console.log(`${DOC} matches bench/*.json`);
} else {
  writeFileSync(DOC, next);
  console.log(next === current ? `${DOC} unchanged` : `${DOC} rewritten from bench/*.json`);
}

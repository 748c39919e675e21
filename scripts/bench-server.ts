/**
 * npm run bench:server: requests/s and p50/p99 latency of the API for a health check (the floor of any
 * request: HTTP in and out, one SELECT 1), login, get-user and get-all-games
 * (a page of 24 from a 10,000-game catalogue: any page, a category's pages on mobile, a name search, a
 * provider-name search), and the wallet's money
 * paths: deposits credited per second (each one an incoming transfer reported by two signed provider
 * webhooks, seen with 0 confirmations then credited at 6, for many players at once), and game wallet
 * bets per second with p50/p99 (a round each: a signed bet then its win, concurrent players), and house
 * Dice rounds per second (server/games: the player's request, the provider's signed bet and win to the
 * game wallet over HTTP; then again with HOUSE_WALLET_HOP=in-process, the same calls without the hop). All on the
 * embedded PGlite and on a PostgreSQL server, each served by a real server process and loaded over HTTP
 * from this one. On that same PostgreSQL, in the same run, pgbench's built-in TPC-B-like script gives
 * the database's own transactions per second, and the wallet figures are printed as a ratio to it: what
 * the wallet costs, read against what the database itself can do on this machine.
 * On PostgreSQL it also counts the SQL statements one call costs, from pg_stat_statements (track = all):
 * a game wallet bet, its win, and a deposit's two webhooks (seen, then credited), each sent alone in
 * turn: the statements the server sends (round trips, BEGIN and COMMIT included), those run inside them
 * (function bodies, triggers) and the foreign-key checks among the latter. The game wallet scenario also
 * gives the p50/p99 of its bets alone, beside the whole round's. On PostgreSQL the two signed wallet scenarios
 * then run again with --processes server processes (default 2) on the same database, each load worker
 * keeping to one of them, and the table gives their rate as a multiple of one process's.
 * At --concurrency (16) the two signed wallet scenarios are bound by their calls' latency, not by the
 * machine: a player waits for each answer before the next call. On PostgreSQL they then run once more at
 * --capacity players at once (default 64, a player each, one server process), the load that fills the
 * two cores, and pgbench runs again with as many clients (its scale as many branches).
 * pgbench also runs at --concurrency clients before the load, on the fresh server (the API's server is up
 * and idle): after the load the server may still be busy with it (autovacuum of the tables the load grew,
 * a checkpoint), which would flatter the ratio. Every ratio is to the best of pgbench's runs.
 * Prints a table and writes bench/results.json. A script, not a test: nothing here asserts a time.
 *
 *   npm run bench:server [-- --duration 10 --concurrency 16 --games 10000 --only pglite|postgres --scenario TEXT --statements --processes 2]
 *
 * --statements lists the statements counted for each call (text, how many per call, their planning and
 * execution time per call; planning is tracked only then).
 *
 * --scenario keeps the scenarios whose name contains TEXT (e.g. `--scenario get-all-games` for the
 * catalogue alone); pgbench then runs only when a wallet scenario did, and the figures go to
 * bench/results.local.json (ignored by git) instead of the full run's bench/results.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openDb } from '../server/db/db.ts';
import { signGameWalletRequest, SIGNATURE_HEADER as GAME_SIGNATURE_HEADER } from '../server/domain/game-wallet.ts';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../server/providers/payment.ts';
import { formatAmount, parseAmount } from '../src/money.ts';
import { encodePassword } from '../src/rules/password.ts';
import { postgresCpuMs, processCpuMs } from './lib/cpu.ts';
import { HttpClient, type HttpResponse } from './lib/http-client.ts';
import { freePort, SERVER_COMMAND, waitForHealth } from './lib/processes.ts';
// @ts-expect-error plain JavaScript helper shared with the test runner
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    games: { type: 'string', default: '10000' },
    only: { type: 'string' },
    scenario: { type: 'string' },
    statements: { type: 'boolean', default: false },
    processes: { type: 'string', default: '2' },
    capacity: { type: 'string', default: '64' },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const CONCURRENCY = Number(values.concurrency);
const GAMES = Number(values.games);
/** Server processes on one PostgreSQL for the second run of the wallet scenarios (1: no second run). */
const PROCESSES = Math.max(1, Number(values.processes));
/** Players at once in the wallet scenarios' capacity run on PostgreSQL (at most --concurrency: no such run). */
const CAPACITY = Math.max(0, Number(values.capacity));
/** Enough players that no two load workers share one, at any of the runs' concurrency. */
const PLAYERS = Math.max(32, CONCURRENCY, CAPACITY);
const PASSWORD = 'Bench@1234';
const WEBHOOK_SECRET = 'bench-webhook-secret-bench-webhook-secret';
const DEPOSIT_AMOUNT = '0.001';
/** Each player's stake money for the game wallet rounds: enough that no round runs short. */
const GAME_FUNDS = '10';
const STAKE = '0.0001';
/** pgbench: the scale is at least the client count, so that TPC-B's branch rows are not one hot spot. */
const PGBENCH_THREADS = 2;
const pgbenchScale = (clients: number) => Math.max(10, clients);

type Response = HttpResponse;

function send(
  client: HttpClient,
  port: number,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  sign?: (payload: string) => Record<string, string>,
): Promise<Response> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined && sign) Object.assign(headers, sign(payload));
  return client.request(port, method, `/api/v1${path}`, headers, payload);
}

interface Scenario {
  name: string;
  /** What one run is, when it is not one request ('deposit': two webhooks ending in a credit). */
  unit?: string;
  run: (client: HttpClient, i: number) => Promise<Response>;
}

interface Result {
  scenario: string;
  /** Runs of the scenario: requests, or the scenario's unit. */
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  unit?: string;
  /** A part of another scenario's runs (its bets alone): latencies only, its rate is the scenario's. */
  latencyOnly?: boolean;
  /** CPU time per run, in ms, of the server process and of the PostgreSQL server's processes (Linux only). */
  serverCpuMsPerUnit?: number;
  postgresCpuMsPerUnit?: number;
  /** This script's own CPU time per run: the load generator, on the same cores as the server. */
  loadCpuMsPerUnit?: number;
  /**
   * Runs per second divided by pgbench's TPC-B-like tps on the same PostgreSQL (PostgreSQL only); for a
   * capacity row, by the better of pgbench's runs at --concurrency and at --capacity clients.
   */
  ratioToPgbenchTps?: number;
  /** Load workers at once, when not --concurrency (the capacity rows). */
  concurrency?: number;
  /** With more than one server process: runs per second divided by the same scenario's with one. */
  scalingFromOneProcess?: number;
}

/** SQL statements per call, from pg_stat_statements (track = all), averaged over a run of calls sent one at a time. */
interface StatementCount {
  call: string;
  calls: number;
  /** Statements the server sent (round trips: BEGIN and COMMIT count). */
  sent: number;
  /** Statements run inside those: function bodies and triggers, foreign-key checks excluded. */
  nested: number;
  /** Foreign-key checks (the referential-integrity triggers' SELECT 1 FROM ONLY ... FOR KEY SHARE, its constant normalised or not). */
  foreignKeyChecks: number;
}

interface PgbenchResult {
  tps: number;
  clients: number;
  threads: number;
  scale: number;
  durationSeconds: number;
  transactions: number;
  latencyAverageMs: number | null;
  /** Before the API's load, on the fresh server, or after it. */
  moment: 'before the load' | 'after the load';
  /** PostgreSQL's CPU time per pgbench transaction (Linux, a server this script started). */
  postgresCpuMsPerTx?: number;
}

/** A real-money game and its provider's wallet key (shared with the provider out of band), and the house's Dice. */
interface GameKey {
  gameId: number;
  secret: string;
  /** The built-in provider's Dice (server/games), null in a database without house games. */
  houseDiceId: number | null;
}

/**
 * Read from the database before the server starts (PGlite allows one process at a time), as the game
 * provider would be told it. Null when the database has no game wallet.
 */
async function readGameKey(kind: 'pglite' | 'postgres', dataDir: string, databaseUrl: string | null): Promise<GameKey | null> {
  const db = kind === 'postgres' && databaseUrl ? await openDb({ kind: 'postgres', url: databaseUrl, maxConnections: 1 }) : await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  try {
    const rows = await db.query<{ id: number; wallet_secret: string }>(
      `SELECT g.id, p.wallet_secret FROM games g JOIN providers p ON p.id = g.provider_id
       WHERE g.active AND p.active AND 'desktop' = ANY (g.devices) ORDER BY g.id LIMIT 1`,
    );
    const row = rows[0];
    if (!row) return null;
    const dice = await db
      .query<{ id: number }>(`SELECT g.id FROM games g JOIN providers p ON p.id = g.provider_id WHERE p.slug = 'house' AND g.engine = 'dice' AND g.active LIMIT 1`)
      .catch(() => []);
    return { gameId: row.id, secret: row.wallet_secret, houseDiceId: dice[0]?.id ?? null };
  } catch (error) {
    console.log(`[${kind}] no game wallet in this database (${(error as Error).message}): game wallet rounds left out`);
    return null;
  } finally {
    await db.close();
  }
}

/** A signed game wallet call, as the game provider sends it. */
function gameCall(client: HttpClient, port: number, secret: string, action: 'bet' | 'win', body: Record<string, unknown>): Promise<Response> {
  return send(client, port, 'POST', `/game-wallet/${action}`, body, undefined, (payload) => ({
    [GAME_SIGNATURE_HEADER]: signGameWalletRequest(secret, payload),
  }));
}

/** A signed provider webhook, as the payment simulator (or a real provider) sends it. */
function webhook(client: HttpClient, port: number, body: Record<string, unknown>): Promise<Response> {
  return send(client, port, 'POST', '/payment/webhook/simulator', body, undefined, (payload) => ({
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(WEBHOOK_SECRET, payload),
  }));
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// ---------------------------------------------------------------------------------------------------
// CPU time per run (scripts/lib/cpu.ts): with the load generator, other work and PostgreSQL sharing the
// machine, a run's CPU cost says what a rate alone cannot.

/** Reads the CPU time so far of the server process and of PostgreSQL's processes (null: not measured). */
let cpuProbe: (() => { server: number | null; postgres: number | null }) | null = null;
/** The port of the PostgreSQL server this script started (null: none, or BENCH_DATABASE_URL's). */
let benchPostgresPort: number | null = null;

/**
 * Latencies a scenario records for a part of its run (the game wallet's bets alone), by name; kept
 * during the measured runs only.
 */
const partLatencies = new Map<string, number[]>();
let measuringParts = false;
function recordPart(name: string, ms: number): void {
  if (!measuringParts) return;
  const list = partLatencies.get(name) ?? [];
  list.push(ms);
  partLatencies.set(name, list);
}

async function load(scenario: Scenario, concurrency = CONCURRENCY): Promise<Result> {
  // A kept connection for each load worker (to each server process it calls).
  const clients = Array.from({ length: concurrency }, () => new HttpClient());
  // Warm-up: JIT, caches and connection pools.
  const warmUntil = Date.now() + Math.min(2000, DURATION_MS / 4);
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      let i = w;
      while (Date.now() < warmUntil) await scenario.run(clients[w]!, (i += concurrency));
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  partLatencies.clear();
  measuringParts = true;
  const cpuBefore = cpuProbe?.() ?? null;
  const loadCpuBefore = process.cpuUsage();
  const start = performance.now();
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      let i = w;
      while (Date.now() < end) {
        const t0 = performance.now();
        const response = await scenario.run(clients[w]!, (i += concurrency));
        latencies.push(performance.now() - t0);
        if (response.status !== 200) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = cpuProbe?.() ?? null;
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const perRun = (before: number | null | undefined, after: number | null | undefined) =>
    before == null || after == null || latencies.length === 0 ? undefined : Number(((after - before) / latencies.length).toFixed(2));
  const serverCpuMsPerUnit = perRun(cpuBefore?.server, cpuAfter?.server);
  const postgresCpuMsPerUnit = perRun(cpuBefore?.postgres, cpuAfter?.postgres);
  const loadCpuMsPerUnit = perRun(0, (loadCpu.user + loadCpu.system) / 1000);
  measuringParts = false;
  for (const client of clients) client.close();
  latencies.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    requests: latencies.length,
    errors,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    ...(scenario.unit ? { unit: scenario.unit } : {}),
    ...(serverCpuMsPerUnit === undefined ? {} : { serverCpuMsPerUnit }),
    ...(postgresCpuMsPerUnit === undefined ? {} : { postgresCpuMsPerUnit }),
    ...(loadCpuMsPerUnit === undefined ? {} : { loadCpuMsPerUnit }),
    ...(concurrency === CONCURRENCY ? {} : { concurrency }),
  };
}

/**
 * Runs `call` `runs` times one after another and divides what pg_stat_statements counted meanwhile in the
 * database by `runs`. Null when the server has no pg_stat_statements loaded.
 */
async function countStatements(databaseUrl: string, name: string, runs: number, call: (i: number) => Promise<Response>): Promise<StatementCount | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await client.query('SELECT pg_stat_statements_reset()');
    } catch (error) {
      console.log(`[postgres] no pg_stat_statements (${(error as Error).message}): statement counts left out`);
      return null;
    }
    for (let i = 0; i < runs; i++) {
      const response = await call(i);
      if (response.status !== 200) throw new Error(`${name} failed while counting statements: ${response.body}`);
    }
    const row = (
      await client.query<{ sent: string; nested: string; fk: string }>(
        `SELECT coalesce(sum(calls) FILTER (WHERE toplevel), 0) AS sent,
           coalesce(sum(calls) FILTER (WHERE NOT toplevel AND query !~ '^SELECT (1|[$][0-9]+) FROM ONLY '), 0) AS nested,
           coalesce(sum(calls) FILTER (WHERE NOT toplevel AND query ~ '^SELECT (1|[$][0-9]+) FROM ONLY '), 0) AS fk
         FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'`,
      )
    ).rows[0];
    const per = (value: string | undefined) => Number((Number(value ?? 0) / runs).toFixed(2));
    if (values.statements) {
      const detail = await client.query<{ toplevel: boolean; calls: string; query: string; plan_ms: number; exec_ms: number }>(
        `SELECT toplevel, calls, query, total_plan_time AS plan_ms, total_exec_time AS exec_ms FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'
         ORDER BY toplevel DESC, calls DESC`,
      );
      const ms = (total: number) => (total / runs).toFixed(3);
      for (const d of detail.rows) {
        console.log(`    ${d.toplevel ? 'sent  ' : 'inside'} ${per(d.calls)}  plan ${ms(d.plan_ms)} ms, run ${ms(d.exec_ms)} ms  ${d.query.replace(/\s+/g, ' ').slice(0, 110)}`);
      }
    }
    return { call: name, calls: runs, sent: per(row?.sent), nested: per(row?.nested), foreignKeyChecks: per(row?.fk) };
  } finally {
    await client.end();
  }
}

/** Calls counted one at a time for the statement counts. */
const COUNTED_CALLS = 50;

async function benchBackend(
  kind: 'pglite' | 'postgres',
  databaseUrl: string | null,
  statements: StatementCount[] = [],
  /** Runs before the first scenario is measured, when a wallet scenario is among them. */
  beforeWalletLoad?: () => Promise<void>,
): Promise<Result[]> {
  const dataDir = mkdtempSync(join(tmpdir(), `casino-bench-${kind}-`));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    NODE_ENV: 'production',
    SIMULATOR: 'on',
    RATE_LIMIT: 'off',
    PAYMENT_PROVIDER: 'simulator',
    PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LOG_LEVEL: 'error',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  };
  console.log(`\n[${kind}] seeding ${GAMES} games...`);
  const seed = spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/seed.ts', '--games', String(GAMES)], { env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('seeding failed');
  const gameKey = await readGameKey(kind, dataDir, databaseUrl);

  const port = await freePort();
  let output = '';
  const startServer = async (extra: Record<string, string> = {}, on = port) => {
    const started = spawn(process.execPath, SERVER_COMMAND, {
      env: { ...env, ...extra, PORT: String(on), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    started.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitForHealth(started, `http://127.0.0.1:${on}/api/v1/health`, () => output, 120_000);
    return started;
  };
  // The wallet scenarios' second run: more server processes on the same database, each load worker
  // keeping to one of them (worker w to process w mod N), as a balancer with sticky connections would.
  const ports = [port];
  const more: ReturnType<typeof spawn>[] = [];
  const at = (i: number) => ports[(i % CONCURRENCY) % ports.length] ?? port;
  const stopServer = async (running: ReturnType<typeof spawn>) => {
    if (running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  let child = await startServer();
  // PGlite runs inside the server process: its CPU time is the server's.
  const serverCpuMs = () => {
    let sum = 0;
    for (const running of [child, ...more]) {
      if (running.pid === undefined) return null;
      sum += processCpuMs(running.pid);
    }
    return sum;
  };
  cpuProbe = () => ({ server: serverCpuMs(), postgres: kind === 'postgres' ? postgresCpuMs(benchPostgresPort) : null });
  try {
    const client = new HttpClient();
    console.log(`[${kind}] creating ${PLAYERS} verified players...`);
    const tokens: string[] = [];
    const logins: string[] = [];
    const addresses: string[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const username = `bench${i}${Date.now() % 100000}`;
      const email = `${username}@example.com`;
      const signup = await send(client, port, 'POST', '/user/signup', {
        firstName: 'Bench', lastName: 'Player', email, username, phoneCode: '351', phone: `9${String(10_000_000 + i * 7919 + (Date.now() % 1000)).slice(-8)}`,
        dateOfBirth: '1990-01-01', gender: 'other', address: 'Rua Augusta 100', city: 'Lisboa', stateCode: '11', countryCode: 'PT', zipCode: '11000',
        password: encodePassword(PASSWORD), confirmPassword: encodePassword(PASSWORD),
      });
      if (signup.status !== 200) throw new Error(`signup failed: ${signup.body}`);
      const mailbox = await send(client, port, 'GET', `/dev/mailbox?to=${encodeURIComponent(email)}`);
      const link = (JSON.parse(mailbox.body) as { data: { messages: { links: string[] }[] } }).data.messages[0]?.links[0];
      const token = link ? new URL(link).searchParams.get('token') : null;
      if (!token) throw new Error('no verification link');
      await send(client, port, 'GET', `/user/verify-email?token=${encodeURIComponent(token)}`);
      const login = await send(client, port, 'POST', '/user/login', { email, password: encodePassword(PASSWORD) });
      const accessToken = (JSON.parse(login.body) as { data: { accessToken: string } }).data.accessToken;
      tokens.push(accessToken);
      logins.push(email);
      const address = await send(client, port, 'POST', '/payment/coin-payments/deposit', { amount: '1', currencyCode: 'LTC' }, accessToken);
      if (address.status !== 200) throw new Error(`deposit address failed: ${address.body}`);
      addresses.push((JSON.parse(address.body) as { data: { address: string } }).data.address);
    }
    const sessions: string[] = [];
    const houseSessions: string[] = [];
    if (gameKey) {
      console.log(`[${kind}] funding the players and opening their game sessions...`);
      for (let i = 0; i < PLAYERS; i++) {
        const transfer = { type: 'deposit', txId: randomBytes(32).toString('hex'), address: addresses[i], currencyCode: 'LTC', amount: GAME_FUNDS, confirmations: 6 };
        const funded = await webhook(client, port, transfer);
        if (funded.status !== 200) throw new Error(`funding failed: ${funded.body}`);
        const init = await send(client, port, 'POST', '/casino/init-game', { gameId: gameKey.gameId, currencyCode: 'LTC' }, tokens[i]);
        if (init.status !== 200) throw new Error(`init-game failed: ${init.body}`);
        sessions.push((JSON.parse(init.body) as { data: { gameSession: { sessionId: string } } }).data.gameSession.sessionId);
        if (gameKey.houseDiceId !== null) {
          const house = await send(client, port, 'POST', '/casino/init-game', { gameId: gameKey.houseDiceId, currencyCode: 'LTC' }, tokens[i]);
          if (house.status !== 200) throw new Error(`init-game (house dice) failed: ${house.body}`);
          houseSessions.push((JSON.parse(house.body) as { data: { gameSession: { sessionId: string } } }).data.gameSession.sessionId);
        }
      }
    }
    client.close();
    const words = ['star', 'gold', 'fire', 'moon', 'lucky', 'wild', 'dragon', 'fruit', 'royal', 'ice'];
    // Parts of the seeded providers' names: each search lists a provider's games besides any game so named.
    const providerWords = ['lunar forge', 'copper fox', 'nebula', 'tidewater', 'quartz owl', 'velvet comet', 'pixel harbor', 'emberline'];
    const pages = Math.max(1, Math.floor(GAMES / 24));
    // The first category (slots) holds about half the catalogue, about a quarter of it on mobile.
    const categoryPages = Math.max(1, Math.floor(GAMES / 4 / 24));
    const scenarios: Scenario[] = [
      // What any request costs at least: HTTP in and out and one trivial round trip to the database.
      { name: 'health (one SELECT 1: the floor of a request)', run: (a) => send(a, port, 'GET', '/health') },
      { name: 'login', run: (a, i) => send(a, port, 'POST', '/user/login', { email: logins[i % PLAYERS], password: encodePassword(PASSWORD) }) },
      { name: 'get-user', run: (a, i) => send(a, port, 'GET', '/user/get-user', undefined, tokens[i % PLAYERS]) },
      { name: 'get-all-games (page of 24)', run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=${1 + (i % pages)}`) },
      {
        name: 'get-all-games (page of 24, name search)',
        run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=1&search=${words[i % words.length]}`),
      },
      {
        name: 'get-all-games (page of 24, a category on mobile)',
        run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=${1 + (i % categoryPages)}&categoryId=1&device=mobile`),
      },
      {
        name: 'get-all-games (page of 24, provider-name search)',
        run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=1&search=${encodeURIComponent(providerWords[i % providerWords.length] ?? '')}`),
      },
      {
        // Each run is one deposit of one of the players: the transfer seen (pending), then confirmed and
        // credited, through the signed webhook and the ledger, exactly as a provider drives it.
        name: 'deposits credited (signed webhooks: seen, then 6 confirmations)',
        unit: 'deposit',
        run: async (a, i) => {
          const transfer = { type: 'deposit', txId: randomBytes(32).toString('hex'), address: addresses[i % PLAYERS], currencyCode: 'LTC', amount: DEPOSIT_AMOUNT };
          const seen = await webhook(a, at(i), { ...transfer, confirmations: 0 });
          if (seen.status !== 200) return seen;
          const credited = await webhook(a, at(i), { ...transfer, confirmations: 6 });
          const status = credited.status === 200 ? (JSON.parse(credited.body) as { data: { deposit: { status: string } } }).data.deposit.status : null;
          return status === 'credited' || credited.status !== 200 ? credited : { status: 0, body: credited.body };
        },
      },
    ];
    if (gameKey) {
      // Round ids are never reused: the warm-up and the measured runs see the same run numbers.
      const runId = randomBytes(4).toString('hex');
      let rounds = 0;
      const wonAmount = formatAmount(parseAmount(STAKE) * 2n);
      scenarios.push({
        // One round per run, by concurrent players (a worker keeps to its own players): the bet, then its
        // win, lost (0) and won (twice the stake) in turn so that balances hold. One bet per round, so
        // bets/s is rounds/s; the latency is the whole round's (both calls).
        name: 'game wallet bets (a round each: signed bet, then its win)',
        unit: 'bet',
        run: async (a, i) => {
          const roundId = `bench-${runId}-${(rounds += 1)}`;
          const sessionId = sessions[i % PLAYERS];
          const t0 = performance.now();
          const bet = await gameCall(a, at(i), gameKey.secret, 'bet', { sessionId, roundId, transactionId: `${roundId}-bet`, amount: STAKE });
          recordPart('bet', performance.now() - t0);
          if (bet.status !== 200) return bet;
          const win = i % 2 === 0 ? '0' : wonAmount;
          return gameCall(a, at(i), gameKey.secret, 'win', { sessionId, roundId, transactionId: `${roundId}-win`, amount: win });
        },
      });
    }
    // A house Dice round (server/games): the player's request, then the provider's signed bet and win to
    // the game wallet, over HTTP to the server's own address as an outside provider would call it. One bet
    // per round; the latency is the player's request, both wallet calls inside it.
    const houseRound = (via: string): Scenario => ({
      name: `house dice rounds (wallet ${via})`,
      unit: 'bet',
      run: (a, i) => send(a, port, 'POST', `/house/${houseSessions[i % PLAYERS]}/dice`, { amount: STAKE, target: 4950, direction: 'under' }, tokens[i % PLAYERS]),
    });
    if (houseSessions.length > 0) scenarios.push(houseRound('over HTTP'));
    const chosen = (scenario: Scenario) => values.scenario === undefined || scenario.name.includes(values.scenario);
    const results: Result[] = [];
    const measure = async (scenario: Scenario, concurrency = CONCURRENCY) => {
      const result = await load(scenario, concurrency);
      console.log(
        `[${kind}] ${scenario.name}: ${result.requestsPerSecond} ${scenario.unit ?? 'req'}/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, errors ${result.errors}`,
      );
      results.push(result);
      for (const [part, latencies] of partLatencies) {
        latencies.sort((a, b) => a - b);
        const partResult: Result = {
          scenario: `${scenario.name}: the ${part} alone`,
          requests: latencies.length,
          errors: 0,
          requestsPerSecond: result.requestsPerSecond,
          p50Ms: Number(percentile(latencies, 50).toFixed(2)),
          p99Ms: Number(percentile(latencies, 99).toFixed(2)),
          unit: part,
          latencyOnly: true,
          ...(result.concurrency === undefined ? {} : { concurrency: result.concurrency }),
        };
        console.log(`[${kind}] ${partResult.scenario}: p50 ${partResult.p50Ms} ms, p99 ${partResult.p99Ms} ms`);
        results.push(partResult);
      }
    };
    // Statement counts, before the load (on a database the load has not grown yet), when a wallet scenario runs.
    if (kind === 'postgres' && databaseUrl && scenarios.filter(chosen).some((scenario) => scenario.unit === 'deposit' || scenario.unit === 'bet')) {
      const client = new HttpClient();
      console.log(`[${kind}] counting statements per call (${COUNTED_CALLS} of each, one at a time)...`);
      const countId = randomBytes(4).toString('hex');
      const counted = async (name: string, call: (i: number) => Promise<Response>) => {
        const count = await countStatements(databaseUrl, name, COUNTED_CALLS, call);
        if (count) {
          statements.push(count);
          console.log(`[${kind}] ${name}: ${count.sent} sent, ${count.nested} inside them, ${count.foreignKeyChecks} foreign-key checks`);
        }
      };
      if (gameKey) {
        const round = (i: number) => ({ sessionId: sessions[i % PLAYERS], roundId: `count-${countId}-${i}` });
        await counted('game wallet bet', (i) => gameCall(client, port, gameKey.secret, 'bet', { ...round(i), transactionId: `count-${countId}-${i}-bet`, amount: STAKE }));
        await counted('game wallet win', (i) =>
          gameCall(client, port, gameKey.secret, 'win', { ...round(i), transactionId: `count-${countId}-${i}-win`, amount: i % 2 === 0 ? '0' : STAKE }),
        );
      }
      const transfer = (i: number) => ({ type: 'deposit', txId: `count-${countId}-${i}`, address: addresses[i % PLAYERS], currencyCode: 'LTC', amount: DEPOSIT_AMOUNT });
      await counted('deposit webhook: seen (0 confirmations)', (i) => webhook(client, port, { ...transfer(i), confirmations: 0 }));
      await counted('deposit webhook: credited (6 confirmations)', (i) => webhook(client, port, { ...transfer(i), confirmations: 6 }));
      client.close();
    }
    if (beforeWalletLoad && scenarios.filter(chosen).some((scenario) => scenario.unit && WALLET_UNITS.has(scenario.unit))) await beforeWalletLoad();
    for (const scenario of scenarios.filter(chosen)) await measure(scenario);
    // The signed wallet scenarios again with PROCESSES server processes on the same PostgreSQL: how far
    // the rate grows from one process to more (it cannot, where PostgreSQL or the cores are the limit).
    const walletScenarios = scenarios.filter((scenario) => chosen(scenario) && scenario.unit && WALLET_UNITS.has(scenario.unit) && scenario.name.includes('signed'));
    if (kind === 'postgres' && PROCESSES > 1 && walletScenarios.length > 0) {
      console.log(`[${kind}] starting ${PROCESSES - 1} more server process(es) on the same database...`);
      for (let n = 1; n < PROCESSES; n++) {
        const on = await freePort();
        // Its own data folder: the one lock the server takes on its folder is for PGlite, not a server's database.
        more.push(await startServer({ DATA_DIR: join(dataDir, `process-${n + 1}`) }, on));
        ports.push(on);
      }
      for (const scenario of walletScenarios) {
        const single = results.find((r) => r.scenario === scenario.name);
        await measure({ ...scenario, name: `${scenario.name}, ${PROCESSES} server processes` });
        const multiple = results.find((r) => r.scenario === `${scenario.name}, ${PROCESSES} server processes`);
        if (single && multiple) {
          multiple.scalingFromOneProcess = Number((multiple.requestsPerSecond / single.requestsPerSecond).toFixed(2));
          console.log(`[${kind}] ${scenario.name}: ${PROCESSES} server processes give ${multiple.scalingFromOneProcess}× the rate of one`);
        }
      }
      for (const running of more.splice(0)) await stopServer(running);
      ports.splice(1);
    }
    // The signed wallet scenarios at CAPACITY players at once, one server process: the rate the machine
    // gives once the load fills it, where at CONCURRENCY each player's wait for its answers bounds it.
    if (kind === 'postgres' && CAPACITY > CONCURRENCY) {
      for (const scenario of walletScenarios) await measure({ ...scenario, name: `${scenario.name}, ${CAPACITY} players at once` }, CAPACITY);
    }
    // The same rounds with the provider's wallet calls handed to the server's router in process
    // (HOUSE_WALLET_HOP=in-process): what the HTTP hop costs.
    const inProcess = houseRound('in process, no HTTP hop');
    if (houseSessions.length > 0 && chosen(inProcess)) {
      await stopServer(child);
      console.log(`[${kind}] restarting the server with HOUSE_WALLET_HOP=in-process...`);
      child = await startServer({ HOUSE_WALLET_HOP: 'in-process' });
      await measure(inProcess);
    }
    return results;
  } finally {
    for (const running of [child, ...more]) await stopServer(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function pgBinDir(started: { binDir: string } | null): string | null {
  if (started) return started.binDir;
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pgbench'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Runs a PostgreSQL client tool; as root, as the postgres user, like the throwaway server (scripts/lib/postgres.mjs). */
function pgTool(binDir: string, tool: string, args: string[]): string {
  const command = join(binDir, tool);
  const asRoot = process.getuid?.() === 0;
  const [file, fileArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, fileArgs, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  return `${result.stdout}\n${result.stderr}`;
}

/**
 * pgbench's built-in TPC-B-like script (five statements per transaction: three updates, a select, an
 * insert) on its own database of the same server, with as many clients as the wallet scenarios (`clients`).
 */
async function runPgbench(adminUrl: string, binDir: string, clients: number, moment: PgbenchResult['moment'] = 'after the load'): Promise<PgbenchResult> {
  const scale = pgbenchScale(clients);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS casino_pgbench');
  await admin.query('CREATE DATABASE casino_pgbench');
  const url = new URL(adminUrl);
  const connection = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
  try {
    console.log(`\n[postgres] pgbench: initialising scale ${scale}...`);
    pgTool(binDir, 'pgbench', ['-i', '-q', '-s', String(scale), ...connection, 'casino_pgbench']);
    const seconds = Math.max(1, Math.round(DURATION_MS / 1000));
    console.log(`[postgres] pgbench: TPC-B-like, ${seconds} s, ${clients} clients, ${PGBENCH_THREADS} threads, ${moment}...`);
    const cpuBefore = postgresCpuMs(benchPostgresPort);
    const output = pgTool(binDir, 'pgbench', ['-T', String(seconds), '-c', String(clients), '-j', String(PGBENCH_THREADS), ...connection, 'casino_pgbench']);
    // "tps = 1234.5 (without initial connection time)" since PostgreSQL 14, "(excluding connections establishing)" before.
    const tps = /tps = ([0-9.]+) \((?:without initial|excluding)/.exec(output)?.[1];
    if (!tps) throw new Error(`no tps in pgbench output:\n${output}`);
    const transactions = /number of transactions actually processed: ([0-9]+)/.exec(output)?.[1];
    const latency = /latency average = ([0-9.]+) ms/.exec(output)?.[1];
    return {
      tps: Number(Number(tps).toFixed(1)),
      clients,
      threads: PGBENCH_THREADS,
      scale,
      durationSeconds: seconds,
      transactions: Number(transactions ?? 0),
      latencyAverageMs: latency ? Number(latency) : null,
      moment,
      ...(cpuBefore === null || !transactions ? {} : { postgresCpuMsPerTx: Number((((postgresCpuMs(benchPostgresPort) ?? cpuBefore) - cpuBefore) / Number(transactions)).toFixed(2)) }),
    };
  } finally {
    await admin.query('DROP DATABASE IF EXISTS casino_pgbench').catch(() => undefined);
    await admin.end();
  }
}

/** The money scenarios, whose cost is worth reading against the database's own transaction rate. */
const WALLET_UNITS = new Set(['deposit', 'bet']);

async function main(): Promise<void> {
  const backends: Record<string, Result[]> = {};
  let pgbench: PgbenchResult | null = null;
  let pgbenchAtCapacity: PgbenchResult | null = null;
  // Set inside the run's callback, which TypeScript's narrowing of a plain `let` does not follow.
  const fresh: { run: PgbenchResult | null } = { run: null };
  const statements: StatementCount[] = [];
  if (values.only !== 'postgres') backends.pglite = await benchBackend('pglite', null);
  if (values.only !== 'pglite') {
    if (!postgresAvailable() && !process.env.BENCH_DATABASE_URL) {
      console.log('\nNo PostgreSQL binaries and no BENCH_DATABASE_URL: PostgreSQL skipped');
    } else {
      const server = process.env.BENCH_DATABASE_URL
        ? null
        : await startPostgres({
            durable: true,
            settings: [
              'shared_preload_libraries=pg_stat_statements',
              'pg_stat_statements.track=all',
              ...(values.statements ? ['pg_stat_statements.track_planning=on'] : []),
            ],
          });
      benchPostgresPort = server?.port ?? null;
      const adminUrl = process.env.BENCH_DATABASE_URL ?? server.url;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query('DROP DATABASE IF EXISTS casino_bench');
      await admin.query('CREATE DATABASE casino_bench');
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = '/casino_bench';
      try {
        const binDir = pgBinDir(server);
        backends.postgres = await benchBackend('postgres', url.toString(), statements, async () => {
          if (!binDir || !existsSync(join(binDir, 'pgbench'))) return;
          fresh.run = await runPgbench(adminUrl, binDir, CONCURRENCY, 'before the load');
          console.log(`[postgres] pgbench TPC-B-like, before the load: ${fresh.run.tps} tps`);
        });
        if (!backends.postgres.some((r) => r.unit && WALLET_UNITS.has(r.unit))) {
          console.log('[postgres] no wallet scenario run: pgbench left out');
        } else if (binDir && existsSync(join(binDir, 'pgbench'))) {
          pgbench = await runPgbench(adminUrl, binDir, CONCURRENCY);
          console.log(`[postgres] pgbench TPC-B-like: ${pgbench.tps} tps`);
          if (backends.postgres.some((r) => r.concurrency !== undefined)) {
            pgbenchAtCapacity = await runPgbench(adminUrl, binDir, CAPACITY);
            console.log(`[postgres] pgbench TPC-B-like, ${CAPACITY} clients: ${pgbenchAtCapacity.tps} tps`);
          }
          // Every wallet row against pgbench's best run: the database's own rate, whichever load and moment gave it.
          const best = Math.max(pgbench.tps, pgbenchAtCapacity?.tps ?? 0, fresh.run?.tps ?? 0);
          for (const result of backends.postgres) {
            if (result.unit && WALLET_UNITS.has(result.unit) && !result.latencyOnly) {
              result.ratioToPgbenchTps = Number((result.requestsPerSecond / best).toFixed(3));
            }
          }
        } else {
          console.log('[postgres] no pgbench binary (set PG_BIN_DIR): the ratio to pgbench is left out');
        }
      } finally {
        server?.stop();
      }
    }
  }
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    settings: {
      durationSeconds: DURATION_MS / 1000,
      concurrency: CONCURRENCY,
      games: GAMES,
      pageSize: 24,
      players: PLAYERS,
      capacityConcurrency: CAPACITY > CONCURRENCY ? CAPACITY : null,
      depositAmount: DEPOSIT_AMOUNT,
      ...(values.scenario === undefined ? {} : { scenario: values.scenario }),
    },
    note:
      'Server and load generator share the machine; server in production mode (no response validation), rate limits off. ' +
      'A wallet scenario counts its own unit per second (a deposit: two signed webhooks ending in a credit); ' +
      'ratioToPgbenchTps divides it by the best of the runs of pgbench TPC-B-like on the same PostgreSQL (durable: fsync on): ' +
      'at the concurrency before the load (pgbenchBeforeLoad) and after it (pgbench), and at the capacity after it (pgbenchAtCapacity).',
    backends,
    pgbench,
    pgbenchAtCapacity,
    pgbenchBeforeLoad: fresh.run,
    statements,
  };
  const resultsFile = join('bench', values.scenario === undefined ? 'results.json' : 'results.local.json');
  mkdirSync('bench', { recursive: true });
  writeFileSync(resultsFile, JSON.stringify(report, null, 2) + '\n');
  console.log(
    '\n| backend | scenario | per s | p50 ms | p99 ms | errors | ÷ pgbench tps | server CPU ms per run | PostgreSQL CPU ms per run | load generator CPU ms per run | × one server process |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const [backend, results] of Object.entries(backends)) {
    for (const r of results) {
      const perSecond = r.latencyOnly ? '' : r.unit ? `${r.requestsPerSecond} ${r.unit}s` : `${r.requestsPerSecond} req`;
      const ratio = r.ratioToPgbenchTps === undefined ? '' : `${r.ratioToPgbenchTps}`;
      console.log(
        `| ${backend} | ${r.scenario} | ${perSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${ratio} | ${r.latencyOnly ? '' : (r.serverCpuMsPerUnit ?? '')} | ${r.latencyOnly ? '' : (r.postgresCpuMsPerUnit ?? '')} | ${r.latencyOnly ? '' : (r.loadCpuMsPerUnit ?? '')} | ${r.scalingFromOneProcess ?? ''} |`,
      );
    }
  }
  for (const run of [fresh.run, pgbench, pgbenchAtCapacity]) {
    if (!run) continue;
    console.log(
      `| postgres | pgbench TPC-B-like (scale ${run.scale}, ${run.clients} clients, ${run.threads} threads, ${run.moment}) | ${run.tps} tx | ${run.latencyAverageMs ?? ''} (avg) | | | | | ${run.postgresCpuMsPerTx ?? ''} | | |`,
    );
  }
  if (statements.length > 0) {
    console.log('\n| postgres: statements per call (pg_stat_statements, track = all) | sent by the server | run inside them | foreign-key checks |\n| --- | --- | --- | --- |');
    for (const c of statements) console.log(`| ${c.call} | ${c.sent} | ${c.nested} | ${c.foreignKeyChecks} |`);
  }
  console.log(`\nWritten to ${resultsFile}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

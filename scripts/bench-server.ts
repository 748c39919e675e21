/**
 * npm run bench:server: requests/s and p50/p99 latency of the API for login, get-user and get-all-games
 * (a page of 24 from a 10,000-game catalogue, with and without a name search), on the embedded PGlite
 * and on a PostgreSQL server, each served by a real server process and loaded over HTTP from this one.
 * Prints a table and writes bench/results.json. A script, not a test: nothing here asserts a time.
 *
 *   npm run bench:server [-- --duration 10 --concurrency 16 --games 10000 --only pglite|postgres]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { encodePassword } from '../src/rules/password.ts';
import { freePort, waitForHealth } from './lib/processes.ts';
// @ts-expect-error plain JavaScript helper shared with the test runner
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    games: { type: 'string', default: '10000' },
    only: { type: 'string' },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const CONCURRENCY = Number(values.concurrency);
const GAMES = Number(values.games);
const PLAYERS = 32;
const PASSWORD = 'Bench@1234';

interface Response {
  status: number;
  body: string;
}

function send(agent: Agent, port: number, method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

interface Scenario {
  name: string;
  run: (agent: Agent, i: number) => Promise<Response>;
}

interface Result {
  scenario: string;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function load(scenario: Scenario): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  // Warm-up: JIT, caches and connection pools.
  const warmUntil = Date.now() + Math.min(2000, DURATION_MS / 4);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      let i = w;
      while (Date.now() < warmUntil) await scenario.run(agent, (i += CONCURRENCY));
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      let i = w;
      while (Date.now() < end) {
        const t0 = performance.now();
        const response = await scenario.run(agent, (i += CONCURRENCY));
        latencies.push(performance.now() - t0);
        if (response.status !== 200) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    requests: latencies.length,
    errors,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
  };
}

async function benchBackend(kind: 'pglite' | 'postgres', databaseUrl: string | null): Promise<Result[]> {
  const dataDir = mkdtempSync(join(tmpdir(), `casino-bench-${kind}-`));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    NODE_ENV: 'production',
    SIMULATOR: 'on',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'error',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  };
  console.log(`\n[${kind}] seeding ${GAMES} games...`);
  const seed = spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/seed.ts', '--games', String(GAMES)], { env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('seeding failed');

  const port = await freePort();
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  try {
    await waitForHealth(child, `http://127.0.0.1:${port}/api/v1/health`, () => output, 120_000);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    console.log(`[${kind}] creating ${PLAYERS} verified players...`);
    const tokens: string[] = [];
    const logins: string[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const username = `bench${i}${Date.now() % 100000}`;
      const email = `${username}@example.com`;
      const signup = await send(agent, port, 'POST', '/user/signup', {
        firstName: 'Bench', lastName: 'Player', email, username, phoneCode: '351', phone: `9${String(10_000_000 + i * 7919 + (Date.now() % 1000)).slice(-8)}`,
        dateOfBirth: '1990-01-01', gender: 'other', address: 'Rua Augusta 100', city: 'Lisboa', stateCode: '11', countryCode: 'PT', zipCode: '11000',
        password: encodePassword(PASSWORD), confirmPassword: encodePassword(PASSWORD),
      });
      if (signup.status !== 200) throw new Error(`signup failed: ${signup.body}`);
      const mailbox = await send(agent, port, 'GET', `/dev/mailbox?to=${encodeURIComponent(email)}`);
      const link = (JSON.parse(mailbox.body) as { data: { messages: { links: string[] }[] } }).data.messages[0]?.links[0];
      const token = link ? new URL(link).searchParams.get('token') : null;
      if (!token) throw new Error('no verification link');
      await send(agent, port, 'GET', `/user/verify-email?token=${encodeURIComponent(token)}`);
      const login = await send(agent, port, 'POST', '/user/login', { email, password: encodePassword(PASSWORD) });
      tokens.push((JSON.parse(login.body) as { data: { accessToken: string } }).data.accessToken);
      logins.push(email);
    }
    agent.destroy();
    const words = ['star', 'gold', 'fire', 'moon', 'lucky', 'wild', 'dragon', 'fruit', 'royal', 'ice'];
    const pages = Math.max(1, Math.floor(GAMES / 24));
    const scenarios: Scenario[] = [
      { name: 'login', run: (a, i) => send(a, port, 'POST', '/user/login', { email: logins[i % PLAYERS], password: encodePassword(PASSWORD) }) },
      { name: 'get-user', run: (a, i) => send(a, port, 'GET', '/user/get-user', undefined, tokens[i % PLAYERS]) },
      { name: 'get-all-games (page of 24)', run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=${1 + (i % pages)}`) },
      {
        name: 'get-all-games (page of 24, name search)',
        run: (a, i) => send(a, port, 'GET', `/casino/get-all-games?limit=24&page=1&search=${words[i % words.length]}`),
      },
    ];
    const results: Result[] = [];
    for (const scenario of scenarios) {
      const result = await load(scenario);
      console.log(`[${kind}] ${scenario.name}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, errors ${result.errors}`);
      results.push(result);
    }
    return results;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const backends: Record<string, Result[]> = {};
  if (values.only !== 'postgres') backends.pglite = await benchBackend('pglite', null);
  if (values.only !== 'pglite') {
    if (!postgresAvailable() && !process.env.BENCH_DATABASE_URL) {
      console.log('\nNo PostgreSQL binaries and no BENCH_DATABASE_URL: PostgreSQL skipped');
    } else {
      const server = process.env.BENCH_DATABASE_URL ? null : await startPostgres({ durable: true });
      const adminUrl = process.env.BENCH_DATABASE_URL ?? server.url;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query('DROP DATABASE IF EXISTS casino_bench');
      await admin.query('CREATE DATABASE casino_bench');
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = '/casino_bench';
      try {
        backends.postgres = await benchBackend('postgres', url.toString());
      } finally {
        server?.stop();
      }
    }
  }
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    settings: { durationSeconds: DURATION_MS / 1000, concurrency: CONCURRENCY, games: GAMES, pageSize: 24 },
    note: 'Server and load generator share the machine; server in production mode (no response validation), rate limits off.',
    backends,
  };
  mkdirSync('bench', { recursive: true });
  writeFileSync(join('bench', 'results.json'), JSON.stringify(report, null, 2) + '\n');
  console.log('\n| backend | scenario | req/s | p50 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- | --- |');
  for (const [backend, results] of Object.entries(backends)) {
    for (const r of results) console.log(`| ${backend} | ${r.scenario} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} |`);
  }
  console.log('\nWritten to bench/results.json');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

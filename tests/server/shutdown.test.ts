import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';
import { loadConfig } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/db.ts';
import { verifyLedger } from '../../server/domain/ledger.ts';
import { newPlayer, startTestServer, TEST_PASSWORD_HASHING } from '../helpers/api.ts';
import { checkResponse, operation, recordCoverage } from '../helpers/contract.ts';
import { createTestDb, postgresUrlOf, TEMPLATE_DATABASE } from '../helpers/db.ts';

// `npm start` as an operator runs it, in a process group of its own (as a terminal gives it), stopped in each
// way it is stopped: Ctrl-C (SIGINT to the group), SIGTERM to the group, SIGTERM to npm alone, and the start
// script killed outright. Each time the server must close the HTTP server and the database, remove its lock
// on the data folder, and leave no process behind; the next start opens the same data.

const folders: string[] = [];
const groups: number[] = [];
afterAll(() => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

// An empty SPA folder: `npm start` serves it as a build made elsewhere and builds nothing.
const spaDir = folder('casino-shutdown-spa-');

interface Started {
  npm: ChildProcess;
  group: number;
  port: number;
  output: () => string;
  /** Settles once the group's output has all been read: every process that held its pipes has exited. */
  outputEnded: Promise<void>;
}

async function npmStart(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SPA_DIR: spaDir,
      SIMULATOR: 'on',
      JWT_SECRET: 'shutdown-test-secret-shutdown-test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // a process group of its own, whose leader is npm
  });
  if (npm.pid === undefined) throw new Error('npm did not start');
  groups.push(npm.pid);
  let output = '';
  npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // The script and the server write to npm's pipes too, and hold them open until they exit.
  const outputEnded = Promise.all([npm.stdout, npm.stderr].map((stream) => new Promise<void>((resolve) => stream?.once('close', () => resolve())))).then(() => undefined);
  await waitForHealth(npm, `http://127.0.0.1:${port}/api/v1/health`, () => output);
  return { npm, group: npm.pid, port, output: () => output, outputEnded };
}

/** The processes of a group: pid, state (ps's STAT: Z for one that has exited, not yet reaped) and command line. */
function groupProcesses(group: number): { pid: number; state: string; args: string }[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && Number(match[2]) === group)
    .map((match) => ({ pid: Number(match[1]), state: match[3] ?? '', args: match[4] ?? '' }));
}

/**
 * Whether a process of the group still runs. One that has exited is not counted while it waits to be
 * reaped: a process whose parent died first is reaped by init, which some systems do only every second
 * or so, and until then it stays in the group as a zombie.
 */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  return groupProcesses(group).some((p) => !p.state.startsWith('Z'));
}

async function waitGroupGone(started: Started, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(started.group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (groupAlive(started.group)) {
    const left = groupProcesses(started.group);
    throw new Error(`processes left: ${JSON.stringify(left)}\n${started.output()}`);
  }
}

/**
 * The state PostgreSQL records in the data folder's control file (pg_control: a uint64 system identifier,
 * two uint32 versions, then the state): 1 once shut down cleanly, 6 while in production (open, or left
 * open by a process that died), which the next open recovers from.
 */
const DB_SHUTDOWNED = 1;
function clusterState(dataDir: string): number {
  return readFileSync(join(dataDir, 'pglite', 'global', 'pg_control')).readUInt32LE(16);
}

async function stopAndCheck(started: Started, dataDir: string, stop: (started: Started) => void): Promise<void> {
  const t0 = Date.now();
  stop(started);
  await waitGroupGone(started);
  await started.outputEnded;
  const seconds = (Date.now() - t0) / 1000;
  expect(existsSync(join(dataDir, 'server.lock')), started.output()).toBe(false);
  expect(started.output()).toContain('shutting down');
  // Nothing answers on the port any more.
  await expect(fetch(`http://127.0.0.1:${started.port}/api/v1/health`)).rejects.toThrow();
  expect(seconds).toBeLessThan(20);
}

// The PGlite variants on the PGlite pass, one PostgreSQL stop on the PostgreSQL pass (scripts/test.mjs).
if (!process.env.TEST_DATABASE_URL) {
  describe('npm start on PGlite', () => {
    const dataDir = folder('casino-shutdown-');
    // A migrated, seeded folder to start from (the template every PGlite test database is loaded from):
    // what a stop leaves is the subject here; a first start on an empty folder is tests/server/restart.test.ts's.
    beforeAll(async () => {
      const template = await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), loadFrom: new Blob([readFileSync(inject('pgliteTemplate'))]) });
      await template.close();
    });

    const variants: [string, (started: Started) => void][] = [
      ['Ctrl-C (SIGINT to the process group)', (s) => process.kill(-s.group, 'SIGINT')],
      ['SIGTERM to the process group', (s) => process.kill(-s.group, 'SIGTERM')],
      ['SIGTERM to npm alone', (s) => process.kill(s.group, 'SIGTERM')],
      [
        'the start script killed outright (SIGKILL)',
        (s) => {
          const script = groupProcesses(s.group).find((p) => p.args.startsWith(`${process.execPath} scripts/start.mjs`) || p.args.startsWith('node scripts/start.mjs'));
          if (!script) throw new Error(`no start script in ${JSON.stringify(groupProcesses(s.group))}`);
          process.kill(script.pid, 'SIGKILL');
        },
      ],
    ];

    // One data folder for all: each start opens the data the previous stop left (the tests run in order).
    variants.forEach(([name, stop], index) => {
      it(`stops cleanly on ${name}`, async () => {
        const started = await npmStart(dataDir);
        expect(started.output()).not.toMatch(/recover|not properly shut down/i);
        // The demo player is created by the first start only: the next ones open the same data.
        expect(started.output().includes('The demo player was created')).toBe(index === 0);
        await stopAndCheck(started, dataDir, stop);
        // PGlite was closed: its cluster is recorded as shut down, not left for recovery.
        expect(clusterState(dataDir)).toBe(DB_SHUTDOWNED);
      }, 120_000);
    });
  });
} else {
  describe('npm start on PostgreSQL', () => {
    it('ends its connection pool and its LISTEN connection when npm is stopped', async () => {
      const adminUrl = process.env.TEST_DATABASE_URL ?? '';
      const name = `casino_shutdown_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const appName = `casino-shutdown-${process.pid}`;
        const connections = async () =>
          Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [appName])).rows[0]?.n);
        const dataDir = folder('casino-shutdown-pg-');
        const started = await npmStart(dataDir, { DATABASE_URL: url.toString(), PGAPPNAME: appName });
        expect(await connections()).toBeGreaterThan(0);
        await stopAndCheck(started, dataDir, (s) => process.kill(s.group, 'SIGTERM'));
        // No connection of the server's is left open (its pool and its LISTEN connection were ended).
        const deadline = Date.now() + 5_000;
        while ((await connections()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await connections()).toBe(0);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
        await admin.end();
      }
    }, 120_000);
  });
}

// A stop while players bet: the house games reach the game wallet over HTTP at the server's own address.
// Every round in flight must finish its wallet calls, every request the server took must be answered
// (a connection it no longer takes is refused, never cut), and no round may be left betting or settling.

interface Answer {
  status: number;
  body: any;
}

/** One operation of openapi.yaml over the player's own connection, its answer checked against the contract. */
function call(
  agent: Agent,
  port: number,
  operationId: string,
  options: { body?: unknown; query?: Record<string, string>; params?: Record<string, string>; token?: string } = {},
): Promise<Answer> {
  const { method, path } = operation(operationId);
  const query = new URLSearchParams(options.query ?? {}).toString();
  const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''))}${query ? `?${query}` : ''}`;
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: method.toUpperCase(),
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const contentType = String(res.headers['content-type'] ?? '');
          let body: unknown = text;
          if (contentType.startsWith('application/json')) {
            try {
              body = JSON.parse(text);
            } catch {
              // left as text: the contract check below names it
            }
          }
          const status = res.statusCode ?? 0;
          const violation = checkResponse(operationId, status, contentType, body);
          if (violation) {
            reject(new Error(`${operationId} answered ${status} against openapi.yaml: ${violation}: ${text.slice(0, 300)}`));
            return;
          }
          recordCoverage(operationId, status, (body as { errors?: { description?: string }[] }).errors?.[0]?.description ?? null);
          resolve({ status, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The built server started on `dataDir` (PGlite) or on `db` (PostgreSQL), answering health. */
async function startServer(dataDir: string, db: Awaited<ReturnType<typeof createTestDb>> | null) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(inject('serverBuild'), 'main.js')], {
    env: {
      ...process.env,
      ...TEST_PASSWORD_HASHING,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SPA_DIR: spaDir,
      SIMULATOR: 'on',
      RATE_LIMIT: 'off',
      JWT_SECRET: 'shutdown-test-secret-shutdown-test',
      ...(db ? { DATABASE_URL: postgresUrlOf(db) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitForHealth(child, `http://127.0.0.1:${port}/api/v1/health`, () => output);
  return { child, port, exited, output: () => output };
}

/** A migrated, seeded PGlite folder to start from (the template every PGlite test database is loaded from). */
async function seededFolder(prefix: string): Promise<string> {
  const dataDir = folder(prefix);
  const template = await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), loadFrom: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  await template.close();
  return dataDir;
}

interface Bettor {
  agent: Agent;
  token: string;
  sessionId: string;
}

/** Players with 5 LTC each and a real-money house Dice session, each on a connection of its own (as a browser tab). */
async function diceBettors(port: number, count: number): Promise<Bettor[]> {
  const agents = Array.from({ length: count }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const lobby = await call(agents[0]!, port, 'casinoGetAllGames', { query: { search: 'Dice', limit: '50' } });
  const dice = (lobby.body.data.casinoGames.rows as { id: number; identifier: string }[]).find((game) => game.identifier === 'house-dice');
  if (!dice) throw new Error('no house Dice in the catalogue');
  return Promise.all(
    agents.map(async (agent) => {
      const payload = newPlayer();
      expect((await call(agent, port, 'userSignup', { body: payload })).status).toBe(200);
      const mailbox = await call(agent, port, 'devGetMailbox', { query: { to: payload.email } });
      const link = new URL(mailbox.body.data.messages[0].links[0] as string);
      expect((await call(agent, port, 'userVerifyEmail', { query: { token: link.searchParams.get('token')! } })).status).toBe(200);
      const token = (await call(agent, port, 'userLogin', { body: { email: payload.email, password: payload.password } })).body.data.accessToken as string;
      const address = (await call(agent, port, 'paymentDeposit', { token, body: { amount: '1', currencyCode: 'LTC' } })).body.data.address as string;
      const txId = (await call(agent, port, 'devChainTransfer', { body: { address, amount: '5' } })).body.data.txId as string;
      expect((await call(agent, port, 'devChainConfirm', { body: { txId, confirmations: 6 } })).body.data.transfer.settled).toBe(true);
      const session = await call(agent, port, 'casinoInitGame', { token, body: { gameId: dice.id, currencyCode: 'LTC' } });
      return { agent, token, sessionId: session.body.data.gameSession.sessionId as string };
    }),
  );
}

const playDice = (bettor: Bettor, port: number) =>
  call(bettor.agent, port, 'housePlayDice', {
    token: bettor.token,
    params: { sessionId: bettor.sessionId },
    body: { amount: '0.001', target: 4950, direction: 'under' },
  });

const bigintsAsText = (_: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/** Runs `check` on the database the server used: the PostgreSQL one, or its PGlite folder opened once it has stopped. */
async function onStoppedDatabase<T>(dataDir: string, db: Db | null, check: (db: Db) => Promise<T>): Promise<T> {
  if (db) return check(db);
  const stopped = await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  try {
    return await check(stopped);
  } finally {
    await stopped.close();
  }
}

describe('a stop while 20 players bet on house Dice', () => {
  const PLAYERS = 20;
  const pool = process.env.TEST_DATABASE_URL ? createTestDb() : null;
  afterAll(async () => (await pool)?.close());

  it('lets the rounds in flight finish, answers every request it took, refuses new connections, and leaves no round pending', async () => {
    const db = await pool;
    const dataDir = db ? folder('casino-shutdown-load-') : await seededFolder('casino-shutdown-load-');
    const server = await startServer(dataDir, db);
    const { child, port, exited } = server;
    try {
      const players = await diceBettors(port, PLAYERS);

      // Every player bets in a loop until the server no longer takes its connection.
      interface Sent {
        at: number;
        answeredAt?: number;
        status?: number;
        failure?: string;
      }
      const sent: Sent[] = [];
      let stopAt = Infinity;
      let rounds = 0;
      const betting = players.map(async (player) => {
        for (;;) {
          const entry: Sent = { at: Date.now() };
          sent.push(entry);
          try {
            const answer = await playDice(player, port);
            entry.status = answer.status;
            rounds += 1;
          } catch (error) {
            entry.failure = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
            return;
          } finally {
            entry.answeredAt = Date.now();
          }
        }
      });
      // The stop comes once every player is betting.
      while (rounds < PLAYERS * 3) await new Promise((resolve) => setTimeout(resolve, 10));
      stopAt = Date.now();
      child.kill('SIGTERM');
      await Promise.all(betting);
      for (const player of players) player.agent.destroy();
      expect(await exited, server.output()).toBe(0);
      expect((Date.now() - stopAt) / 1000).toBeLessThan(15);

      // Rounds were in flight when the stop came, and each request was answered or never taken.
      const inFlight = sent.filter((entry) => entry.at < stopAt && (entry.answeredAt ?? Infinity) > stopAt);
      expect(inFlight.length).toBeGreaterThan(0);
      const answered = sent.filter((entry) => entry.status !== undefined);
      expect(answered.filter((entry) => entry.status !== 200), JSON.stringify(answered.filter((entry) => entry.status !== 200))).toEqual([]);
      const failures = sent.filter((entry) => entry.failure !== undefined).map((entry) => entry.failure);
      expect(failures.filter((failure) => failure !== 'ECONNREFUSED'), server.output()).toEqual([]);
      expect(failures).toHaveLength(PLAYERS);

      // Every round taken was settled: none left betting or settling (pending until the player's next call).
      const byState = await onStoppedDatabase(dataDir, db, async (stopped) =>
        Object.fromEntries(
          (await stopped.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM house_rounds GROUP BY state')).map((row) => [row.state, row.n]),
        ),
      );
      expect(byState).toEqual({ settled: answered.length });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('killed outright (kill -9) while they bet, leaves every money call whole: the ledger checks, each call posted once, and the server starts again', async () => {
    const db = await pool;
    const dataDir = db ? folder('casino-kill-load-') : await seededFolder('casino-kill-load-');
    const first = await startServer(dataDir, db);
    let second: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      const players = await diceBettors(first.port, 10);
      let rounds = 0;
      const betting = players.map(async (player) => {
        for (;;) {
          try {
            await playDice(player, first.port);
            rounds += 1;
          } catch {
            return; // the server is gone
          }
        }
      });
      while (rounds < 30) await new Promise((resolve) => setTimeout(resolve, 10));
      first.child.kill('SIGKILL');
      await Promise.all(betting);
      for (const player of players) player.agent.destroy();
      expect(await first.exited).toBeNull();

      // What committed is whole: every cached balance equals its entries, every transaction balances and
      // chains, and every game-wallet ledger transaction is the one of a recorded call (none without it).
      const ledgerOf = (stopped: Db) =>
        Promise.all([
          verifyLedger(stopped),
          stopped.query<{ posted: number; recorded: number }>(
            `SELECT (SELECT count(*)::int FROM ledger_transactions WHERE kind LIKE 'game.%') AS posted,
               (SELECT count(*)::int FROM game_wallet_actions WHERE ledger_transaction_id IS NOT NULL) AS recorded`,
          ),
        ]);
      const [report, [counts]] = await onStoppedDatabase(dataDir, db, ledgerOf);
      expect(report.ok, JSON.stringify(report, bigintsAsText)).toBe(true);
      expect(counts!.posted).toBe(counts!.recorded);
      expect(counts!.posted).toBeGreaterThanOrEqual(30);

      // The server starts again on the same data and takes the players' next rounds.
      second = await startServer(dataDir, db);
      const again = await Promise.all(
        players.map((player) => playDice({ ...player, agent: new Agent({ keepAlive: false }) }, second!.port)),
      );
      expect(again.map((answer) => answer.status)).toEqual(players.map(() => 200));
      second.child.kill('SIGTERM');
      expect(await second.exited, second.output()).toBe(0);
      const [after] = await onStoppedDatabase(dataDir, db, ledgerOf);
      expect(after.ok, JSON.stringify(after, bigintsAsText)).toBe(true);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
      if (second && second.child.exitCode === null) second.child.kill('SIGKILL');
    }
  }, 180_000);
});

describe('draining, the first step of a stop', () => {
  it('lasts at most SHUTDOWN_DRAIN_SECONDS: 10 unless set, 0 not at all', () => {
    expect(loadConfig({}).shutdownDrainSeconds).toBe(10);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '3' }).shutdownDrainSeconds).toBe(3);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainSeconds).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('refuses new connections, answers what arrives on open ones and closes them, and waits for the requests taken at most its time', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (entered = resolve));
    const server = await startTestServer(
      {},
      {
        // The health check is held until the test lets it go: a request taken before the stop and still running.
        overrideHandlers: {
          getHealth: async () => {
            entered();
            await gate;
            return { status: 'ok', database: server.db.kind, simulator: server.config.simulator, version: 'test' };
          },
        },
      },
    );
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as { port: number }).port;
      const busy = new Agent({ keepAlive: true, maxSockets: 1 });
      const idle = new Agent({ keepAlive: true, maxSockets: 1 });
      const get = (agent: Agent | false, path: string) =>
        new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: `/api/v1${path}`, agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          req.on('error', reject);
          req.end();
        });
      const running = get(busy, '/health');
      await held;
      // A connection left open, waiting for its next request.
      expect(await get(idle, '/common/get-settings')).toEqual({ status: 200, connection: 'keep-alive' });

      const t0 = Date.now();
      expect(await server.app.drain(300)).toBe(false);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
      // No new connection is taken; a request on one already open is answered, and its connection closed.
      await expect(get(false, '/common/get-settings')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(await get(idle, '/common/get-settings')).toEqual({ status: 200, connection: 'close' });

      const draining = server.app.drain(10_000);
      release();
      expect(await running).toEqual({ status: 200, connection: 'close' });
      expect(await draining).toBe(true);
      busy.destroy();
      idle.destroy();
    } finally {
      release();
      await server.close();
    }
  });
});

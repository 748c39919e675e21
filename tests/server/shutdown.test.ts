import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';
import { TEMPLATE_DATABASE } from '../helpers/db.ts';

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
  await waitForHealth(npm, `http://127.0.0.1:${port}/api/v1/health`, () => output);
  return { npm, group: npm.pid, port, output: () => output };
}

/** The processes of a group: pid and command line. */
function groupProcesses(group: number): { pid: number; args: string }[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && Number(match[2]) === group)
    .map((match) => ({ pid: Number(match[1]), args: match[3] ?? '' }));
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
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

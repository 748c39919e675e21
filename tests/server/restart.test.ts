import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { openDb } from '../../server/db/db.ts';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer } from '../helpers/api.ts';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';

// Real server processes (the build of this run, tests/setup/global.ts) on one PGlite data folder: what a
// player writes survives a restart, and a second server on the same folder refuses to start instead of
// corrupting it.

const SERVER_COMMAND = [join(inject('serverBuild'), 'main.js')];

const dataDir = mkdtempSync(join(tmpdir(), 'casino-restart-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(port: number): Started {
  const child = spawn(process.execPath, SERVER_COMMAND, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SIMULATOR: 'on', JWT_SECRET: 'restart-test-secret-restart-test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function post(port: number, path: string, body: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

it('keeps data across a restart and refuses a second server on the same folder', async () => {
  const port = await freePort();
  const first = startServer(port);
  await waitForHealth(first.child, `http://127.0.0.1:${port}/api/v1/health`, first.output);
  expect(first.output()).toContain('Demo player: demo@casino.local');

  const player = newPlayer();
  const signup = await post(port, '/user/signup', player);
  expect(signup.status).toBe(200);

  // A second server on the same data folder stops at once with a clear message.
  const second = startServer(await freePort());
  expect(await second.exited).toBe(1);
  expect(second.output()).toContain('is in use by another server');

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);

  const again = startServer(port);
  await waitForHealth(again.child, `http://127.0.0.1:${port}/api/v1/health`, again.output);
  expect(again.output()).not.toContain('The demo player was created');
  // The player written before the restart is still there: signing up again is refused as a duplicate.
  const duplicate = await post(port, '/user/signup', player);
  expect(duplicate.status).toBe(409);
  expect(duplicate.body.errors[0].description).toBe('USERNAME_OR_EMAIL_ALREADY_EXISTS');
  const demoLogin = await post(port, '/user/login', { email: 'demo', password: encodePassword('Demo@1234') });
  expect(demoLogin.status).toBe(200);
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
}, 120_000);

it('stops cleanly on SIGTERM while it is still starting, and frees its data folder', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'casino-stop-'));
  try {
    // A migrated, seeded folder (the test databases' template): the first start on an empty one is the test above.
    const template = await openDb({ kind: 'pglite', dataDir: join(folder, 'pglite'), loadFrom: new Blob([readFileSync(inject('pgliteTemplate'))]) });
    await template.close();
    const start = (port: number) => {
      const child = spawn(process.execPath, SERVER_COMMAND, {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: folder, SIMULATOR: 'on', JWT_SECRET: 'restart-test-secret-restart-test' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      return { child, exited, output: () => output };
    };
    const first = start(await freePort());
    // The lock is taken once the stop handlers are in place, before the database is opened and migrated.
    const deadline = Date.now() + 60_000;
    while (!existsSync(join(folder, 'server.lock')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(folder, 'server.lock'))).toBe(false);

    // The folder is free: the next server starts on it.
    const port = await freePort();
    const next = start(port);
    await waitForHealth(next.child, `http://127.0.0.1:${port}/api/v1/health`, next.output);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 180_000);

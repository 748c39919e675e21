import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer } from '../helpers/api.ts';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';

// Real server processes (the build of this run, tests/setup/global.ts) on one PGlite data folder: what a
// player writes survives a restart, a second server on the same folder refuses to start instead of
// corrupting it, and a server stopped while it is still starting frees the folder. The folder starts
// empty: the first start migrates and seeds it.

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
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
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
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
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

// One test for the whole sequence: each server process costs seconds of a core to start, so each start
// serves what the one before it left.
it('keeps data across a restart, refuses a second server on the same folder, and stops cleanly on SIGTERM while still starting', async () => {
  const port = await freePort();
  const first = startServer(port);
  await waitForHealth(first.child, `http://127.0.0.1:${port}/api/v1/health`, first.output);
  expect(first.output()).toContain('Demo player: demo@casino.local');
  expect(first.output()).toContain('The demo player was created');

  const player = newPlayer();
  const signup = await post(port, '/user/signup', player);
  expect(signup.status).toBe(200);

  // A second server on the same data folder stops at once with a clear message.
  const second = startServer(await freePort());
  expect((await second.exited).code).toBe(1);
  expect(second.output()).toContain('is in use by another server');

  first.child.kill('SIGTERM');
  expect(await first.exited, first.output()).toEqual({ code: 0, signal: null });

  // A server stopped while it is still starting: the lock is taken once the stop handlers are in place,
  // before the database is opened and migrated. It exits cleanly and frees the folder.
  const stopped = startServer(await freePort());
  const deadline = Date.now() + 60_000;
  while (!existsSync(join(dataDir, 'server.lock')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  stopped.child.kill('SIGTERM');
  expect(await stopped.exited, stopped.output()).toEqual({ code: 0, signal: null });
  expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);

  // The folder is free: the next server starts on it, with what was written before the restarts.
  const again = startServer(port);
  await waitForHealth(again.child, `http://127.0.0.1:${port}/api/v1/health`, again.output);
  expect(again.output()).not.toContain('The demo player was created');
  // The player is still there: signing up again is refused as a duplicate.
  const duplicate = await post(port, '/user/signup', player);
  expect(duplicate.status).toBe(409);
  expect(duplicate.body.errors[0].description).toBe('USERNAME_OR_EMAIL_ALREADY_EXISTS');
  const demoLogin = await post(port, '/user/login', { email: 'demo', password: encodePassword('Demo@1234') });
  expect(demoLogin.status).toBe(200);
  again.child.kill('SIGTERM');
  expect(await again.exited, again.output()).toEqual({ code: 0, signal: null });
}, 120_000);

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer } from '../helpers/api.ts';

// Real server processes on one PGlite data folder: what a player writes survives a restart, and a
// second server on the same folder refuses to start instead of corrupting it.

const dataDir = mkdtempSync(join(tmpdir(), 'casino-restart-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(port: number): Started {
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/main.ts'], {
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

async function waitUntilUp(started: Started, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start: ${started.output()}`);
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
  await waitUntilUp(first, port);
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
  await waitUntilUp(again, port);
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

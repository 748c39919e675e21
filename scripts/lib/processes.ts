import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A TCP port nothing listens on right now, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Waits until a server process answers its health check; fails with its output if it exits or stalls.
 * A first start migrates and seeds an embedded database, which on a busy 2-core machine has taken a
 * full minute: the default leaves room for that.
 */
export async function waitForHealth(child: ChildProcess, healthUrl: string, output: () => string, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
    try {
      if ((await fetch(healthUrl)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start:\n${output()}`);
}

/**
 * How the server runs: Node itself with tsx as its loader (as `npm start` and `npm run server` run it),
 * not the tsx command, which runs it in a child process and kills that child by the signal when its relay
 * of a SIGTERM is not acknowledged within 30 ms, as happens on a busy machine.
 */
export const SERVER_COMMAND = ['--import', 'tsx', 'server/main.ts'];

export interface ProductServer {
  url: string;
  apiUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The product as `npm start` runs it (the SPA must be built already), on a free port and the embedded
 * database of `dataDir` (a fresh folder unless given), which goes with it: removed when it stops or fails
 * to start. For the browser tests and the web audit.
 */
export async function startProductServer(env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'casino-server-'))): Promise<ProductServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, SERVER_COMMAND, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SIMULATOR: 'on', PUBLIC_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForHealth(child, `${url}/api/v1/health`, () => output);
  } catch (error) {
    // A server that never answered must not outlive the run.
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    apiUrl: `${url}/api/v1`,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

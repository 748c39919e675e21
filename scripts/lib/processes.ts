import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

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

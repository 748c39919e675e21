import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';

/**
 * The browser tests' world: a real Chromium (CHROME_PATH, else the one the npm package
 * @sparticuz/chromium unpacks, so nothing is downloaded outside the npm registry) driving the built SPA
 * served with the API by a real server process on a fresh embedded database.
 */
export async function launchBrowser(): Promise<Browser> {
  const flags = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
  if (process.env.CHROME_PATH) {
    return chromium.launch({ executablePath: process.env.CHROME_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', ...flags] });
  }
  const packaged = (await import('@sparticuz/chromium')).default;
  // The package is made for one-page serverless runs: in --single-process mode, closing a page closes the browser.
  const args = packaged.args.filter((arg) => arg !== '--single-process');
  return chromium.launch({ executablePath: await packaged.executablePath(), headless: true, args: [...args, ...flags] });
}

export interface ProductServer {
  url: string;
  apiUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** The product as `npm start` runs it (the SPA must be built already: npm test builds it first). */
export async function startProductServer(env: Record<string, string> = {}): Promise<ProductServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'casino-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(join('node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SIMULATOR: 'on', PUBLIC_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForHealth(child, `${url}/api/v1/health`, () => output);
  } catch (error) {
    // A server that never answered must not outlive the test run.
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

export interface ScriptLoad {
  url: string;
  /** The script as the browser runs it. */
  bytes: number;
  /** The body as it came over the wire (compressed when the server compressed it). */
  wireBytes: number;
  /** The response's Content-Encoding ('br', 'gzip'), '' when none. */
  encoding: string;
}

/** Every JavaScript file the page requests until the network is idle, with its size on the wire. */
export async function scriptsLoaded(page: Page, url: string): Promise<ScriptLoad[]> {
  const scripts: ScriptLoad[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('javascript')) return;
    pending.push(
      Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => {
        scripts.push({
          url: response.url(),
          bytes: body.length,
          wireBytes: sizes.responseBodySize,
          encoding: response.headers()['content-encoding'] ?? '',
        });
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  return scripts;
}

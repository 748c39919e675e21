import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { newPlayer } from '../helpers/players.ts';

/**
 * The browser tests' world: a real Chromium (CHROME_PATH, else the one the npm package
 * @sparticuz/chromium unpacks, so nothing is downloaded outside the npm registry) driving the built SPA
 * served with the API by a real server process on a fresh embedded database. The global setup
 * (tests/e2e/global.ts) starts one browser and one server for the whole run; each file connects to the
 * browser and opens contexts of its own, so files share no cookies, storage or cache.
 */
export async function browserLaunchOptions(): Promise<LaunchOptions> {
  const flags = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
  if (process.env.CHROME_PATH) {
    return { executablePath: process.env.CHROME_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', ...flags] };
  }
  const packaged = (await import('@sparticuz/chromium')).default;
  // The package is made for one-page serverless runs: in --single-process mode, closing a page closes the browser.
  const args = packaged.args.filter((arg) => arg !== '--single-process');
  return { executablePath: await packaged.executablePath(), headless: true, args: [...args, ...flags] };
}

/** The run's browser; closing what this returns disconnects this file and closes its contexts, not the browser. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserEndpoint'));
}

/** The run's server: the built SPA and the API, simulator on, on one embedded database every file shares. */
export interface SharedServer {
  url: string;
  apiUrl: string;
}

export function sharedServer(): SharedServer {
  const url = inject('serverUrl');
  return { url, apiUrl: `${url}/api/v1` };
}

/**
 * A player of one's own on the shared server, signed up and verified through the API and the simulator's
 * mailbox, for a test that changes its player (the demo player is everyone's).
 */
export async function verifiedPlayer(server: SharedServer): Promise<{ email: string; username: string; password: string }> {
  const payload = newPlayer();
  const signup = await fetch(`${server.apiUrl}/user/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const mailbox = (await (await fetch(`${server.apiUrl}/dev/mailbox?to=${encodeURIComponent(payload.email)}`)).json()) as {
    data: { messages: { links: string[] }[] };
  };
  const link = mailbox.data.messages[0]?.links[0];
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no verification email to ${payload.email}`);
  const verified = await fetch(`${server.apiUrl}/user/verify-email?token=${encodeURIComponent(token)}`);
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  return { email: payload.email, username: payload.username, password: 'Secret@123' };
}

export { startProductServer, type ProductServer } from '../../scripts/lib/processes.ts';

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

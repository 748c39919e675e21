import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type LaunchOptions, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startProductServer, type ProductServer } from '../../scripts/lib/processes.ts';
import { newPlayer } from '../helpers/players.ts';

/**
 * Flags of the packaged Chromium's defaults, which are made for one-page serverless runs, left out here:
 * - `--single-process`: closing a page would close the browser;
 * - a GPU emulated in software (SwiftShader through ANGLE) inside the browser process: the pages need no
 *   GL, and Chromium's own software drawing (`--disable-gpu`, in every launch) costs far less. With
 *   the emulated GPU, the browser process took 303 s of CPU in a run of these tests (the whole browser
 *   372 s, the run 327 s at 187% of the 2 cores); without it, the browser 151 s and the run 209 s;
 * - `--disable-web-security` and `--allow-running-insecure-content`: the pages are tested under the
 *   same-origin and mixed-content rules a player's browser applies.
 */
const SERVERLESS_ONLY_FLAGS = new Set([
  '--single-process',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--disable-web-security',
  '--allow-running-insecure-content',
]);

/**
 * The browser tests' world: a real Chromium (CHROME_PATH, else the one the npm package
 * @sparticuz/chromium unpacks, so nothing is downloaded outside the npm registry) driving the built SPA
 * served with the API by a real server process on a fresh embedded database. The global setup
 * (tests/e2e/global.ts) starts one browser and one server for the whole run; each file connects to the
 * browser and opens contexts of its own, so files share no cookies, storage or cache.
 */
export async function browserLaunchOptions(): Promise<LaunchOptions> {
  // Chromium's own software drawing for the pages, whichever browser: they need no GL.
  const flags = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
  if (process.env.CHROME_PATH) {
    return { executablePath: process.env.CHROME_PATH, headless: true, args: ['--no-sandbox', ...flags] };
  }
  const packaged = (await import('@sparticuz/chromium')).default;
  const args = packaged.args.filter((arg) => !SERVERLESS_ONLY_FLAGS.has(arg));
  return { executablePath: await unpackedChromium(packaged), headless: true, args: [...args, ...flags] };
}

/**
 * The packaged Chromium, unpacked once per machine and version into a folder of its own that appears
 * whole. The package unpacks the browser and its graphics libraries straight into the temporary folder
 * and takes them as ready as soon as the files exist, so two runs started together (two npm tests on one
 * machine) would start a browser another run is still writing. Here each run that finds no complete copy
 * unpacks into a scratch folder and renames it into place, which is atomic; a run that loses the race
 * drops its copy and uses the winner's.
 */
async function unpackedChromium(packaged: { executablePath(): Promise<string> }): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as { version: string };
  const home = join(tmpdir(), `casino-chromium-${manifest.version}`);
  if (!existsSync(join(home, COMPLETE))) {
    const scratch = mkdtempSync(join(tmpdir(), 'casino-chromium-unpacking-'));
    const saved = process.env.TMPDIR;
    // The package unpacks into os.tmpdir(), which reads TMPDIR on every call.
    process.env.TMPDIR = scratch;
    try {
      await packaged.executablePath();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    writeFileSync(join(scratch, COMPLETE), '');
    try {
      renameSync(scratch, home);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return join(home, 'chromium');
}

/** Written last into an unpacked copy: a folder without it is not used. */
const COMPLETE = '.complete';

/**
 * Screenshots are for a person to look at (a screen at 390 and 1280 px before it is called done), not a check:
 * the browser tests take them into SCREENSHOTS when SCREENSHOTS=1 (`npm run screenshots`). npm test takes
 * none: the tests check the same pages without them, and their PNGs were a tenth of the pass's CPU (20 of
 * 210 s; the pass took 127 s with them, 115 s without, `npm run test:profile`).
 */
export const SCREENSHOTS = 'test-results/screenshots';
export const screenshotsWanted = process.env.SCREENSHOTS === '1';

/** A screenshot of a page or of an element into SCREENSHOTS, when they are wanted. */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!screenshotsWanted) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await ('goto' in target ? target.screenshot({ path, fullPage: options.fullPage ?? false }) : target.screenshot({ path }));
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

/** A real-money game of the shared server and its provider's wallet key, shared with the provider out of band. */
export interface KeyedGame {
  id: number;
  name: string;
  secret: string;
}

/** Two games of the shared server that an outside provider runs, with their wallet key (the global setup read them). */
export function keyedGames(): KeyedGame[] {
  return inject('gameWalletKeys');
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

export type { ProductServer } from '../../scripts/lib/processes.ts';

/**
 * A server of a file's own (a configuration the shared one has not: social sign-in), as `npm start` runs it
 * on a copy of the data folder the shared server started on, so it does not migrate and seed anew.
 */
export async function startOwnServer(env: Record<string, string>): Promise<ProductServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'casino-own-server-'));
  cpSync(inject('serverTemplate'), dataDir, { recursive: true });
  return startProductServer(env, dataDir);
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

/**
 * The Content-Security-Policy violations Chromium reports on the console, in every page and frame of a
 * context from now on (the server's policy, server/http/security.ts): a test expects none.
 */
export function cspViolations(context: BrowserContext): string[] {
  const violations: string[] = [];
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

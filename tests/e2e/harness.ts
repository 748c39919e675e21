import { chromium, type Browser, type Page } from 'playwright-core';

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

/**
 * The "All games" grid at 10,000 games on a phone (390 × 844, touch), its processor slowed 4× through the
 * DevTools protocol: the grid is scrolled to its very end, and the script prints how long that took, the
 * most tiles the page held at once, and every long task (over 50 ms, from a PerformanceObserver) after
 * the first page. It seeds its own data folder and starts its own server from the built SPA (run
 * `npm run build` first).
 *
 *   npm run bench:grid [-- --games 10000 --throttle 4]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { browserLaunchOptions } from '../tests/e2e/harness.ts';
import { startProductServer } from './lib/processes.ts';

const { values } = parseArgs({ options: { games: { type: 'string', default: '10000' }, throttle: { type: 'string', default: '4' } } });
const games = Number(values.games);
const throttle = Number(values.throttle);

const dataDir = mkdtempSync(join(tmpdir(), 'casino-bench-grid-'));
const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--games', String(games)], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
if (seeded.status !== 0) {
  rmSync(dataDir, { recursive: true, force: true });
  throw new Error(`seeding failed: ${seeded.stdout}${seeded.stderr}`);
}
const server = await startProductServer({ RATE_LIMIT: 'off' }, dataDir);
const browser = await chromium.launch(await browserLaunchOptions());
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await page.goto(`${server.url}/games`);
  const status = page.getByText(/^Showing [\d,]+ of [\d,]+ games$/);
  await status.waitFor();
  // The whole catalogue: the games seeded and the house's own.
  const total = (await status.textContent())!.match(/of ([\d,]+)/)![1]!;
  await page.evaluate(() => {
    const host = window as unknown as { longTasks: number[] };
    host.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) host.longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask' });
  });
  const started = Date.now();
  let most = 0;
  let text = '';
  while (text !== `Showing ${total} of ${total} games` && Date.now() - started < 600_000) {
    const shown = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return { tiles: document.querySelectorAll('main article[aria-label]').length, text: document.querySelector('main [role="status"]')?.textContent ?? '' };
    });
    most = Math.max(most, shown.tiles);
    text = shown.text;
    await page.waitForTimeout(50);
  }
  const seconds = (Date.now() - started) / 1000;
  // The last rows' covers arrive after the scroll stops: their drawing counts too.
  await page.waitForTimeout(1000);
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const sorted = [...longTasks].sort((a, b) => a - b);
  console.log(`All games, ${total} games (${games.toLocaleString('en')} seeded), 390 px, CPU ${throttle}× slower: ${text} after ${seconds.toFixed(1)} s`);
  console.log(`  tiles in the page at most: ${most}`);
  console.log(`  long tasks after the first page: ${longTasks.length}` + (longTasks.length ? ` (median ${sorted[Math.floor(sorted.length / 2)]} ms, longest ${sorted.at(-1)} ms, ${longTasks.reduce((a, b) => a + b, 0)} ms in all)` : ''));
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connectBrowser, cspViolations, screenshot, scriptsLoaded, sharedServer, type SharedServer } from './harness.ts';

/** Everything the browser downloads to show the lobby to a visitor, compressed as served, must stay under this. */
const LOBBY_BUDGET_BYTES = 90 * 1024;

let server: SharedServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
});

it('shows the lobby to a visitor within the JavaScript budget', async () => {
  const page = await browser.newPage();
  const scripts = await scriptsLoaded(page, server.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Lobby' }).isVisible()).resolves.toBe(true);
  // The loading screen is gone once the app has mounted.
  expect(await page.locator('#loading').count()).toBe(0);
  const total = scripts.reduce((sum, script) => sum + script.wireBytes, 0);
  console.log('JavaScript downloaded for the lobby (as served):');
  for (const script of scripts) {
    console.log(`  ${(script.wireBytes / 1024).toFixed(1)} KB ${script.encoding || 'identity'}  ${new URL(script.url).pathname}`);
  }
  console.log(`  ${(total / 1024).toFixed(1)} KB in total (budget ${LOBBY_BUDGET_BYTES / 1024} KB)`);
  expect(scripts.length).toBeGreaterThan(0);
  // Every script came compressed: the sum is what a player's connection carries.
  expect(scripts.filter((script) => script.encoding !== 'br')).toEqual([]);
  expect(scripts.every((script) => script.wireBytes > 0 && script.wireBytes < script.bytes)).toBe(true);
  expect(total).toBeLessThan(LOBBY_BUDGET_BYTES);
  await page.close();
});

it('runs under its Content-Security-Policy with no violation: the lobby, the casino, the log in dialog, a page', async () => {
  const context = await browser.newContext();
  const violations = cspViolations(context);
  const page = await context.newPage();
  const answer = await page.goto(server.url);
  expect(answer?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
  await page.getByRole('heading', { level: 1, name: 'Lobby' }).waitFor();
  await page.goto(`${server.url}/casino`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.goto(`${server.url}/terms?dialog=login`);
  await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  await page.getByText('two weeks', { exact: false }).first().waitFor();
  expect(violations).toEqual([]);
  // The policy is in force and the check hears it: an inline script is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.appendChild(script);
  });
  await expect.poll(() => violations.length).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  await context.close();
});

it('asks a visitor opening the wallet to log in first, also at its old address', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/wallet/deposit`);
  const wallet = page.getByRole('dialog', { name: 'Wallet' });
  await expect(wallet.getByText('Please login first').waitFor()).resolves.toBeUndefined();
  const url = new URL(page.url());
  expect([url.pathname, url.searchParams.get('wallet'), url.searchParams.get('tab')]).toEqual(['/', 'open', 'deposit']);
  await wallet.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  expect(new URL(page.url()).searchParams.get('dialog')).toBe('login');
  await page.close();
});

it('keeps the chosen language across a reload', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('pt');
  await page.getByRole('link', { name: 'Casino ao vivo' }).first().waitFor();
  await page.reload();
  await page.getByRole('link', { name: 'Casino ao vivo' }).first().waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt');
  await page.close();
});

it('renders the server pages, sanitised', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/terms`);
  await page.getByText('two weeks', { exact: false }).first().waitFor();
  expect(await page.locator('article script').count()).toBe(0);
  await page.close();
});

it('shows the lobby on a phone and on a desktop (its screenshots with SCREENSHOTS=1)', async () => {
  for (const width of [390, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 844 } });
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, `lobby-${width}`, { fullPage: true });
    await page.close();
  }
});

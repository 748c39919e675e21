import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, type SharedServer } from './harness.ts';

// The reviewers' /flows screen, as a reviewer uses it: the app in one tab, the chart in another.

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

async function activeStates(page: Page): Promise<string[]> {
  return page.locator('[data-testid="flow-chart"] [class~="flow-active"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state') ?? ''));
}

it('follows the login flow of another tab live, and its chart loads only on /flows', async () => {
  const app = await context.newPage();
  const appScripts: string[] = [];
  app.on('request', (request) => {
    if (request.resourceType() === 'script') appScripts.push(request.url());
  });
  await app.goto(`${server.url}/?dialog=login`);
  await app.getByRole('dialog', { name: 'Log in' }).waitFor();

  const flows = await context.newPage();
  await flows.goto(`${server.url}/flows?machine=login`);
  await flows.getByRole('heading', { name: 'Flow charts' }).waitFor();
  await flows.locator('[data-testid="flow-chart"] svg[data-machine="login"]').waitFor();
  await expect.poll(() => activeStates(flows)).toEqual(['login.editing']);

  // A wrong password in the app tab: the chart follows through submitting to failed.
  const dialog = app.getByRole('dialog', { name: 'Log in' });
  await dialog.getByLabel('Email or username').fill('demo@casino.local');
  await dialog.getByLabel('Password', { exact: true }).fill('Wrong@1234');
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await dialog.getByRole('alert').waitFor();
  await expect.poll(() => activeStates(flows)).toEqual(['login.failed']);
  await screenshot(flows, 'flows-login-1280');

  // The layout engine is never part of what the player's tab loads.
  expect(appScripts.some((url) => /elk|FlowsScreen/i.test(url))).toBe(false);
  await app.close();
  await flows.close();
});

it('simulates a machine: a reviewer steps a copy without calling the server', async () => {
  const flows = await context.newPage();
  const apiCalls: string[] = [];
  flows.on('request', (request) => {
    if (request.url().includes('/api/v1/user/')) apiCalls.push(request.url());
  });
  await flows.goto(`${server.url}/flows?machine=forgotPassword`);
  await flows.locator('[data-testid="flow-chart"] svg[data-machine="forgotPassword"]').waitFor();
  await flows.getByRole('button', { name: 'Simulator' }).click();
  const simulator = flows.getByRole('region', { name: 'Simulator' });
  await simulator.waitFor();
  const state = flows.getByRole('status').filter({ hasText: 'Simulated state:' });
  await expect.poll(() => state.textContent()).toBe('Simulated state: editing');
  // A valid email, then SUBMIT: the copy is submitting, and the server is not asked.
  await simulator.getByRole('button', { name: /^FIELD\.CHANGE.*ana\.silva@example\.com/ }).click();
  await simulator.getByRole('button', { name: /^SUBMIT/ }).click();
  await expect.poll(() => state.textContent()).toBe('Simulated state: submitting');
  // The reviewer picks the operation's outcome from the model tests' fixtures.
  await simulator.getByRole('button', { name: /^error: POST \/user\/forgot-password.*rate limited/ }).click();
  await expect.poll(() => state.textContent()).toBe('Simulated state: failed');
  // The start, then the three steps taken.
  expect(await simulator.locator('ol > li').count()).toBe(4);
  expect(apiCalls).toEqual([]);
  await flows.close();
});

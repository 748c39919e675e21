import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { checkResponse } from '../helpers/contract.ts';
import { connectBrowser, screenshot, sharedServer, type SharedServer } from './harness.ts';

// The notifications dialog against the real server, as the demo player the simulator creates. The server
// has no operation that creates a notification, so against it the list is the empty one: that drives the
// wiring end to end (header bell, address, player-only guard, authenticated load). The last test answers
// the two notification operations in the browser instead, with bodies checked against openapi.yaml, to see
// a list with unread rows.

const DEMO = { email: 'demo@casino.local', password: 'Demo@1234' };
let server: SharedServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function logInInDialog() {
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByLabel('Email or username').fill(DEMO.email);
  await dialog.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Login successful!').first().waitFor();
}

it('asks a visitor opening the notifications to log in, then shows them', async () => {
  await page.goto(`${server.url}/about?dialog=notifications`);
  await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  expect(await page.getByRole('button', { name: /^Notifications/ }).count()).toBe(0);
  await logInInDialog();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await dialog.getByText('You have no notifications.').waitFor();
  const url = new URL(page.url());
  expect(url.pathname).toBe('/about');
  expect(url.searchParams.get('dialog')).toBe('notifications');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(new URL(page.url()).search).toBe('');
});

it("opens from the header's bell on the current path, and closes with Escape", async () => {
  await page.goto(`${server.url}/faq`);
  const bell = page.getByRole('button', { name: 'Notifications', exact: true });
  await bell.click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await dialog.getByText('You have no notifications.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/faq');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `notifications-${width}`);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // Focus goes back to the bell.
  expect(await bell.evaluate((element) => element === document.activeElement)).toBe(true);
});

it('counts unread ones on the bell, marks them in the list, and reads them once seen (notification API answered in the browser)', async () => {
  const stored = [
    { id: 2, title: 'Deposit received', message: 'Your deposit of 0.5 LTC has been credited.', read: false, createdAt: '2025-02-01T18:05:00.000Z' },
    { id: 1, title: 'Welcome', message: 'Welcome to Crypto Casino.', read: true, createdAt: '2025-01-30T09:00:00.000Z' },
  ];
  const marked: number[][] = [];
  const answer = async (route: Route, operationId: string, body: unknown) => {
    expect(checkResponse(operationId, 200, 'application/json', body)).toBeNull();
    await route.fulfill({ json: body });
  };
  const notificationApi = /\/api\/v1\/common\/user-notification(\/read)?(\?|$)/;
  await page.route(notificationApi, async (route) => {
    const request = route.request();
    expect(request.headers().authorization).toMatch(/^Bearer /);
    if (request.method() === 'POST') {
      const { notificationIds } = request.postDataJSON() as { notificationIds: number[] };
      marked.push(notificationIds);
      for (const row of stored) if (notificationIds.includes(row.id)) row.read = true;
      return answer(route, 'commonMarkNotificationsRead', { data: { success: true }, errors: [] });
    }
    const query = new URL(request.url()).searchParams;
    const limit = Number(query.get('limit') ?? 24);
    const offset = (Number(query.get('page') ?? 1) - 1) * limit;
    const rows = stored.slice(offset, offset + limit).map((row) => ({ ...row }));
    const unreadCount = stored.filter((row) => !row.read).length;
    return answer(route, 'commonGetUserNotifications', { data: { notifications: { rows, count: stored.length }, unreadCount }, errors: [] });
  });

  await page.goto(`${server.url}/`);
  const bell = page.getByRole('button', { name: 'Notifications (1 unread)' });
  await bell.click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  const items = dialog.getByRole('listitem');
  await items.first().waitFor();
  expect(await items.allTextContents()).toEqual([
    expect.stringContaining('Deposit received'),
    expect.stringContaining('Welcome'),
  ]);
  expect(await items.first().getByText('Unread').count()).toBe(1);
  expect(await items.nth(1).getByText('Unread').count()).toBe(0);
  await expect.poll(() => marked).toEqual([[2]]);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `notifications-list-${width}`);
  }
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
  await page.unroute(notificationApi);
});

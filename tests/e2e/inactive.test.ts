import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

// SPEC §6: an account an admin inactivated is refused, at login and in a session it already has.

let server: SharedServer;
let browser: Browser;
let page: Page;
// A player of its own: the demo player is everyone's on the shared server.
let player: { email: string; password: string };

beforeAll(async () => {
  server = sharedServer();
  [browser, player] = await Promise.all([connectBrowser(), verifiedPlayer(server)]);
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function setActive(active: boolean) {
  const response = await fetch(`${server.apiUrl}/dev/users/set-active`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: player.email, active }),
  });
  expect(response.status).toBe(200);
}

async function logIn() {
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByLabel('Email or username').fill(player.email);
  await dialog.getByLabel('Password', { exact: true }).fill(player.password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
}

it('ends the session of an account inactivated meanwhile, and refuses its next login', async () => {
  await page.goto(`${server.url}/?dialog=login`);
  // The new session's own calls (the profile fetched again, the bell's count, the reality check's session
  // limit) are answered first: one of them answered after the inactivation would end the session in this
  // page, before the next one loads.
  const settled = Promise.all([
    page.waitForResponse((response) => response.url().includes('/api/v1/user/get-user')),
    page.waitForResponse((response) => response.url().includes('/api/v1/common/user-notification')),
    page.waitForResponse((response) => response.url().includes('/api/v1/responsible-gambling/get-limits')),
  ]);
  await logIn();
  await page.getByRole('button', { name: 'Account' }).waitFor();
  await settled;

  await setActive(false);
  await page.goto(`${server.url}/profile`);
  await page.getByText('User Account Inactivated By Admin').first().waitFor();
  await page.getByRole('button', { name: 'Log in' }).first().waitFor();
  expect(await page.evaluate(() => window.localStorage.getItem('casino.token'))).toBeNull();

  await page.goto(`${server.url}/?dialog=login`);
  await logIn();
  const alert = page.getByRole('dialog', { name: 'Log in' }).getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toBe('User Account Inactivated By Admin');

  await setActive(true);
  await page.getByRole('dialog', { name: 'Log in' }).getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Account' }).waitFor();
});

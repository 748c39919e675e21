import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, type SharedServer } from './harness.ts';

// The account flows end to end, as a player does them, against the real server and its mailbox.

let server: SharedServer;
let browser: Browser;
let page: Page;

const tag = Date.now().toString().slice(-7);
const player = { email: `e2e${tag}@example.com`, username: `e2e${tag}`, password: 'Secret@123', newPassword: 'Newer@4567' };

async function latestLink(to: string): Promise<string> {
  const answer = (await (await fetch(`${server.apiUrl}/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as {
    data: { messages: { links: string[] }[] };
  };
  const link = answer.data.messages[0]?.links[0];
  if (!link) throw new Error(`no email to ${to}`);
  return link;
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function logIn(login: string, password: string) {
  await page.getByRole('button', { name: 'Log in' }).first().click();
  await logInInDialog(login, password);
}

async function logInInDialog(login: string, password: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email or username').fill(login);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Login successful!').first().waitFor();
  await page.getByRole('button', { name: 'Account' }).waitFor();
}

it('registers, verifies the email from the mailbox and logs in', async () => {
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Register' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('First name').fill('Ana');
  await dialog.getByLabel('Last name').fill('Silva');
  await dialog.getByLabel('Email').fill(player.email);
  await dialog.getByLabel('Username').fill(player.username);
  await dialog.getByLabel('Password', { exact: true }).fill(player.password);
  await dialog.getByLabel('Confirm password').fill(player.password);
  await dialog.getByLabel('Phone code').fill('+351');
  await dialog.getByLabel('Mobile number').fill(`91${tag}`);
  await dialog.getByLabel('Date of birth').fill('1990-05-17');
  await dialog.getByLabel('Gender').selectOption('female');
  await dialog.getByLabel('Street address').fill('Rua Augusta 100');
  await dialog.getByLabel('City').fill('Lisboa');
  await dialog.getByLabel('Country').selectOption('PT');
  await dialog.getByLabel('State').selectOption({ index: 1 });
  await dialog.getByLabel('Zip code').fill('11000');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `register-${width}`, { fullPage: true });
  }
  await dialog.getByRole('button', { name: 'Register' }).click();
  await page.getByText('Registered Successfully !').first().waitFor();

  await page.goto(await latestLink(player.email));
  await page.getByText('Email verified').first().waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Log in' }).click();
  expect(new URL(page.url()).searchParams.get('dialog')).toBe('login');
  await logInInDialog(player.email, player.password);

  // Still logged in after a reload: the saved token is restored.
  await page.reload();
  await page.getByRole('button', { name: 'Account' }).waitFor();
  await page.goto(`${server.url}/profile`);
  // The profile opens on the player's basic information, their username in its field.
  const username = page.getByLabel('Username', { exact: true });
  await username.waitFor();
  await expect.poll(() => username.inputValue()).toBe(player.username);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `profile-${width}`, { fullPage: true });
  }
});

it('ends the session with a message when the token stops working on the server', async () => {
  const token = await page.evaluate(() => localStorage.getItem('casino.token'));
  expect(token).toBeTruthy();
  // Another device logs this session out.
  await fetch(`${server.apiUrl}/user/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  await page.goto(`${server.url}/profile`);
  await page.getByText('Session expired. Please login again.').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  expect(await page.evaluate(() => localStorage.getItem('casino.token'))).toBeNull();
});

it('resets a forgotten password from the emailed link, then logs in with it and out', async () => {
  await page.goto(`${server.url}/?dialog=forgot-password`);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(player.email);
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText('Password reset link sended successfully.').first().waitFor();

  await page.goto(await latestLink(player.email));
  const reset = page.getByRole('dialog');
  await reset.getByLabel('New password', { exact: true }).fill(player.newPassword);
  await reset.getByLabel('Confirm new password').fill(player.newPassword);
  await reset.getByRole('button', { name: 'Update password' }).click();
  await page.getByText('Password updated successfully.').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/');

  await logIn(player.username, player.newPassword);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByText('Logged out successfully!').first().waitFor();
  await page.getByRole('button', { name: 'Log in' }).first().waitFor();
  expect(await page.evaluate(() => localStorage.getItem('casino.token'))).toBeNull();
});

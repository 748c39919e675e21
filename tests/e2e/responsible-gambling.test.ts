import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodePassword } from '../../src/rules/password.ts';
import { FLOWS_CHANNEL } from '../../src/views/flows/inspector.ts';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * The responsible-gambling page in Chromium against the real server. Limits: an order the rules refuse
 * (nothing sent), limits saved in order, then an increase shown as pending with the time it takes
 * effect. The session limit of 15 minutes (the least the server takes) and the reality check at it, the
 * browser's clock moved on (page.clock): the session ends, the check says how long the player played, and
 * Log in again starts a new session. Self-exclusion: the confirmation,
 * the player logged out; signed in again, a deposit is refused and a withdrawal taken. The page and a
 * toast in English, Portuguese and Spanish, at 390 and 1280 px.
 */

const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let player: { email: string; password: string };

async function api<T>(path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The page at 390 and 1280 px; then back to `width`, the width the page was at. */
async function screenshots(target: Page, name: string, fullPage = true, width = 1280) {
  for (const each of [390, 1280]) {
    await target.setViewportSize({ width: each, height: 900 });
    await screenshot(target, `${name}-${each}`, { fullPage });
  }
  await target.setViewportSize({ width, height: 900 });
}

async function logIn(on: Page, email: string, password: string) {
  await on.getByRole('button', { name: 'Log in' }).first().click();
  const dialog = on.getByRole('dialog', { name: 'Log in' });
  await dialog.getByLabel('Email or username').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await on.getByText('Login successful!').first().waitFor();
  await on.getByRole('button', { name: 'Account' }).waitFor();
}

/** A limit's field: the period's label inside its kind's group. */
function limitField(on: Page, kind: string, period: string) {
  return on.getByRole('group', { name: kind }).getByLabel(period, { exact: true });
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  player = await verifiedPlayer(server);
});

afterAll(async () => {
  await browser?.close();
});

it('refuses limits out of order beside the fields, and sends nothing', async () => {
  await page.goto(`${server.url}/`);
  await logIn(page, player.email, player.password);
  await page.goto(`${server.url}/responsible-gambling`);
  await page.getByRole('heading', { level: 1, name: 'Responsible gambling' }).waitFor();
  const save = page.getByRole('button', { name: 'Save limits' });
  await save.waitFor();
  expect(await save.isDisabled()).toBe(true);
  await screenshots(page, 'rg-page-en');

  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/responsible-gambling/update-limit')) requests.push(request.url());
  });
  await limitField(page, 'Deposit limit', 'Daily').fill('5');
  await limitField(page, 'Deposit limit', 'Weekly').fill('2');
  const order = 'Limits must grow: daily below weekly, weekly below monthly';
  await page.getByRole('group', { name: 'Deposit limit' }).getByText(order).waitFor();
  expect(await limitField(page, 'Deposit limit', 'Weekly').getAttribute('aria-invalid')).toBe('true');
  await limitField(page, 'Bet limit', 'Daily').fill('0');
  await page.getByRole('group', { name: 'Bet limit' }).getByText('Each limit must be greater than 0').waitFor();
  expect(await save.isDisabled()).toBe(false);
  await save.click();
  await page.getByText(order).waitFor();
  await screenshots(page, 'rg-limits-refused-en');
  expect(requests).toEqual([]);
});

it('saves limits in order, then shows an increase as pending with the time it takes effect', async () => {
  await limitField(page, 'Deposit limit', 'Daily').fill('1');
  await limitField(page, 'Deposit limit', 'Weekly').fill('5');
  await limitField(page, 'Deposit limit', 'Monthly').fill('15');
  await limitField(page, 'Bet limit', 'Daily').fill('');
  expect(await page.getByRole('alert').count()).toBe(0);
  await page.getByRole('button', { name: 'Save limits' }).click();
  await page.getByText('Limits Updated Successfully!').first().waitFor();
  const deposit = page.getByRole('group', { name: 'Deposit limit' });
  await deposit.getByText('In force: 1\u00a0LTC · Used: 0\u00a0LTC').waitFor();
  await deposit.getByText('In force: 5\u00a0LTC · Used: 0\u00a0LTC').waitFor();
  await deposit.getByText('In force: 15\u00a0LTC · Used: 0\u00a0LTC').waitFor();
  expect(await page.getByRole('button', { name: 'Save limits' }).isDisabled()).toBe(true);

  // Raising the daily limit waits 24 hours: the limit in force stays, the new one shows as pending.
  await limitField(page, 'Deposit limit', 'Daily').fill('2');
  await page.getByText('You have unsaved changes.').waitFor();
  await page.getByRole('button', { name: 'Save limits' }).click();
  await page.getByText('Limits Updated Successfully!').first().waitFor();
  const pending = deposit.getByText(/Changes to 2\u00a0LTC on /);
  await pending.waitFor();
  expect(await deposit.getByText('In force: 1\u00a0LTC · Used: 0\u00a0LTC').count()).toBe(1);
  expect(await limitField(page, 'Deposit limit', 'Daily').inputValue()).toBe('2');
  const limits = await api<{ limits: { deposit: { daily: { current: string; pending: { value: string; effectiveAt: string } } } } }>(
    '/responsible-gambling/get-limits',
    undefined,
    (await page.evaluate(() => localStorage.getItem('casino.token'))) ?? '',
  );
  expect(limits.limits.deposit.daily.current).toBe('1');
  expect(limits.limits.deposit.daily.pending.value).toBe('2');
  const hours = (Date.parse(limits.limits.deposit.daily.pending.effectiveAt) - Date.now()) / 3_600_000;
  expect(hours).toBeGreaterThan(23.5);
  expect(hours).toBeLessThanOrEqual(24);
  await screenshots(page, 'rg-limits-pending-en');
});

it('sets a session limit of 15 minutes; at the next login the session ends at 15 minutes, the reality check says so and offers to log in again', async () => {
  const length = page.getByLabel('Session length');
  await length.selectOption({ label: '15 min' });
  await page.getByRole('button', { name: 'Save session limit' }).click();
  await page.getByText('Session limit updated.').first().waitFor();

  // The limit applies from the next login: another browser (a context of its own), its clock driven by the test.
  const clocked = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const timed = await clocked.newPage();
  await timed.clock.install();
  // The clock may move on once the check is waiting for the limit (the flows' own channel, which /flows
  // follows, says when). Not before: a jump fires the timeout of every request still being read, so a
  // jump while the limit's answer is read would end the check without a limit.
  await timed.addInitScript((name: string) => {
    const entered: unknown[] = [];
    Object.assign(window, { realityCheckStates: entered });
    new BroadcastChannel(name).addEventListener('message', (message: MessageEvent<{ machine?: string; value?: unknown }>) => {
      if (message.data.machine === 'realityCheck') entered.push(message.data.value);
    });
  }, FLOWS_CHANNEL);
  const checksWaiting = () => timed.evaluate(() => (window as unknown as { realityCheckStates: unknown[] }).realityCheckStates.filter((value) => value === 'waiting').length);
  await timed.goto(`${server.url}/`);
  await logIn(timed, player.email, player.password);
  await expect.poll(checksWaiting, { timeout: 15_000 }).toBe(1);
  // The server ends this session at the limit: the token's lifetime is 15 minutes.
  const token = await timed.evaluate(() => localStorage.getItem('casino.token'));
  const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
  expect(claims.exp - claims.iat).toBe(15 * 60);
  const check = timed.getByRole('dialog', { name: 'Reality check' });
  await timed.clock.fastForward('14:00');
  expect(await check.count()).toBe(0);
  await timed.getByRole('button', { name: 'Account' }).waitFor();
  await timed.clock.fastForward('01:05');
  // At the limit the player is logged out here too, and told why: no "Keep playing" in a session that has ended.
  await check.getByText('You have played for 15 min.').waitFor();
  await check.getByText('You have reached your session limit: this session has ended.').waitFor();
  expect(await timed.evaluate(() => localStorage.getItem('casino.token'))).toBeNull();
  await timed.getByRole('banner').getByRole('button', { name: 'Log in' }).waitFor();
  expect(await timed.getByText('Session expired').count()).toBe(0);
  await screenshots(timed, 'rg-reality-check-en', false);
  // Log in again: a new session, with a new limit of its own.
  await check.getByRole('button', { name: 'Log in again' }).click();
  const login = timed.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await timed.getByRole('button', { name: 'Account' }).waitFor();
  const newToken = await timed.evaluate(() => localStorage.getItem('casino.token'));
  expect(newToken).not.toBeNull();
  expect(newToken).not.toBe(token);
  // This browser's clock is now 15 minutes ahead of the server's. The new session's check counts on the
  // server's clock (the answers' Date header), so it waits its full 15 minutes rather than ending at once.
  await expect.poll(checksWaiting, { timeout: 15_000 }).toBe(2);
  await timed.clock.fastForward('14:00');
  expect(await timed.evaluate(() => localStorage.getItem('casino.token'))).toBe(newToken);
  expect(await timed.getByRole('dialog', { name: 'Reality check' }).count()).toBe(0);
  await timed.getByRole('button', { name: 'Account' }).waitFor();
  await timed.clock.fastForward('01:05');
  await timed.getByRole('dialog', { name: 'Reality check' }).getByText('You have reached your session limit: this session has ended.').waitFor();
  await clocked.close();
});

for (const [language, texts] of [
  ['pt', { title: 'Jogo responsável', kind: 'Limite de apostas', period: 'Diário', save: 'Guardar limites', toast: 'Limites atualizados com sucesso!' }],
  ['es', { title: 'Juego responsable', kind: 'Límite de apuestas', period: 'Diario', save: 'Guardar límites', toast: '¡Límites actualizados correctamente!' }],
  ['en', { title: 'Responsible gambling', kind: 'Bet limit', period: 'Daily', save: 'Save limits', toast: 'Limits Updated Successfully!' }],
] as const) {
  it(`shows the page and the saved limits' toast in ${language}`, async () => {
    await page.evaluate((lang) => window.localStorage.setItem('casino.language', lang), language);
    await page.goto(`${server.url}/responsible-gambling`);
    await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
    const field = page.getByRole('group', { name: texts.kind }).getByLabel(texts.period, { exact: true });
    await field.waitFor();
    await screenshots(page, `rg-page-${language}`);
    // A lower bet limit each time: it applies at once.
    await field.fill({ pt: '3', es: '2', en: '1' }[language]);
    await page.getByRole('button', { name: texts.save }).click();
    await page.getByText(texts.toast).first().waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `rg-toast-${language}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
}

it('self-excludes a player: the confirmation says what happens, the player is logged out; signed in again, a deposit is refused and a withdrawal taken', async () => {
  // A second player with money: 0.5 LTC deposited through the payment simulator.
  const excluded = await verifiedPlayer(server);
  const { accessToken } = await api<{ accessToken: string }>('/user/login', { email: excluded.email, password: encodePassword(excluded.password) });
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '0.5', currencyCode: 'LTC' }, accessToken);
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '0.5' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });

  const own = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const mobile = await own.newPage();
  await mobile.goto(`${server.url}/`);
  await logIn(mobile, excluded.email, excluded.password);
  await mobile.getByRole('button', { name: 'Balance 0.5\u00a0LTC. Choose a wallet' }).waitFor();
  await mobile.goto(`${server.url}/responsible-gambling`);
  const card = mobile.getByRole('region', { name: 'Self-exclusion' });
  await card.getByRole('radio', { name: 'Temporary' }).check();
  // The shortest break offered: the server takes an end at least 24 hours after it gets the request.
  await card.getByLabel('Exclude me for').selectOption({ label: '24 hours' });
  await card.getByRole('button', { name: 'Start self-exclusion' }).click();
  const confirmation = card.getByRole('region', { name: 'Before you confirm' });
  await confirmation.getByText('You will be logged out at once.').waitFor();
  await confirmation.getByText('Deposits, bonuses and play will be refused.').waitFor();
  await confirmation.getByText('You can still log in to withdraw your balance and see your records.').waitFor();
  await confirmation.getByText(/You will be self-excluded until /).waitFor();
  await confirmation.scrollIntoViewIfNeeded();
  await screenshots(mobile, 'rg-self-exclusion-confirm', false, 390);
  await confirmation.getByRole('button', { name: 'Yes, exclude me' }).click();
  await mobile.getByText('Self-exclusion started. You have been logged out.').first().waitFor();
  await mobile.getByRole('button', { name: 'Log in' }).first().waitFor();
  await mobile.waitForURL((url) => url.pathname === '/');
  expect(await mobile.evaluate(() => localStorage.getItem('casino.token'))).toBeNull();
  await screenshot(mobile, 'rg-self-excluded-logged-out-390');

  // Signed in again: money and records only.
  await logIn(mobile, excluded.email, excluded.password);
  await mobile.goto(`${server.url}/?wallet=open&tab=deposit`);
  const wallet = mobile.getByRole('dialog', { name: 'Wallet' });
  await wallet.getByLabel('Amount').fill('0.5');
  await wallet.getByRole('button', { name: 'Get deposit address' }).click();
  await wallet.getByText('Your account is self-excluded: until the exclusion ends you can withdraw your balance, but not deposit or play.').waitFor();
  await screenshot(mobile, 'rg-self-excluded-deposit-390');
  await wallet.getByRole('tab', { name: 'Withdraw' }).click();
  await wallet.getByLabel('Amount').fill('0.1');
  await wallet.getByLabel('Address').fill(PAYOUT_ADDRESS);
  await wallet.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await wallet.getByRole('button', { name: 'Confirm' }).click();
  await wallet.getByLabel('Withdrawal pending').getByText('Pending').waitFor();
  await screenshot(mobile, 'rg-self-excluded-withdraw-390');

  await mobile.goto(`${server.url}/responsible-gambling`);
  await mobile.getByRole('region', { name: 'Self-exclusion' }).getByText(/You are self-excluded until /).waitFor();
  expect(await mobile.getByRole('button', { name: 'Start self-exclusion' }).count()).toBe(0);
  // The limits to read: the server refuses a change until the exclusion ends.
  await mobile.getByText('While you are self-excluded, your limits cannot be changed.').waitFor();
  // The current use of each limit: the 0.5 LTC deposited counts in the day, the week and the month.
  expect(await mobile.getByRole('group', { name: 'Deposit limit' }).getByText('No limit · Used: 0.5\u00a0LTC').count()).toBe(3);
  expect(await mobile.getByRole('group', { name: 'Bet limit' }).getByText('No limit · Used: 0\u00a0LTC').count()).toBe(3);
  expect(await mobile.getByRole('button', { name: 'Save limits' }).count()).toBe(0);
  await screenshots(mobile, 'rg-self-excluded-page', true, 390);
  await own.close();
});

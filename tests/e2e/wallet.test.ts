import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectBrowser, cspViolations, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * The wallet, as a new player uses it in Chromium against the real server and its payment simulator:
 * the balance pill, the wallet dialog's Deposit tab (address, QR code, Copy, deposits in flight going
 * from seen to credited as the simulated chain confirms them), the Withdraw tab (refusals with their
 * SPEC §8 messages, a pending request, its failure returning the funds) and the Transactions tab, all
 * without a reload: what changes on the server arrives through the live event stream.
 */

/** A valid Litecoin address (bech32, checksum included) that is not the simulator's own. */
const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let player: { email: string; password: string };
let token = '';

async function api<T>(path: string, body: unknown, auth = false): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

async function screenshots(name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`, { fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Content-Security-Policy violations in the file's browser context. */
let violations: string[] = [];

function wallet() {
  return page.getByRole('dialog', { name: 'Wallet' });
}

async function balanceShows(amount: string) {
  await page.getByRole('button', { name: `Balance ${amount}. Choose a wallet` }).waitFor();
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  violations = cspViolations(context);
  page = await context.newPage();
  player = await verifiedPlayer(server);
});

afterAll(async () => {
  await browser?.close();
});

it('asks a visitor opening the wallet to log in first, then opens it on the tab asked for', async () => {
  await page.goto(`${server.url}/?wallet=open&tab=deposit`);
  const dialog = wallet();
  await dialog.getByText('Please login first').waitFor();
  await dialog.getByRole('button', { name: 'Log in' }).click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await wallet().getByRole('tab', { name: 'Deposit', selected: true }).waitFor();
  token = (await page.evaluate(() => window.localStorage.getItem('casino.token'))) ?? '';
  expect(token).not.toBe('');
  await balanceShows('0\u00a0LTC');
});

it('gets a deposit address, shows its QR code and copies it', async () => {
  await page.goto(`${server.url}/?wallet=open&tab=deposit`);
  const dialog = wallet();
  await dialog.getByLabel('Amount').fill('0.5');
  await dialog.getByRole('button', { name: 'Get deposit address' }).click();
  await dialog.getByRole('img', { name: 'QR code of the deposit address' }).waitFor();
  const address = (await dialog.getByTestId('deposit-address').textContent()) ?? '';
  expect(address).toMatch(/^ltc1/);
  await dialog.getByText('Network: ').waitFor();
  await dialog.getByText('Minimum deposit: 0.00005\u00a0LTC', { exact: false }).waitFor();
  await dialog.getByText('credited after 6 network confirmations', { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.getByText('Address copied.').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await screenshots('wallet-deposit-address');
  // The QR code, the copy and the dialog run under the server's Content-Security-Policy.
  expect(violations).toEqual([]);
});

it('shows a transfer as seen, then 3 of 6 confirmations, then credited, with the balance, without a reload', async () => {
  const dialog = wallet();
  const address = (await dialog.getByTestId('deposit-address').textContent()) ?? '';
  // Nothing reloads from here on: a reload would lose this mark.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '0.5' });
  const deposits = dialog.getByRole('region', { name: 'Your deposits' });
  await deposits.getByText('0 of 6 confirmations').waitFor();
  await api('/dev/chain/confirm', { txId, confirmations: 3 });
  await deposits.getByText('3 of 6 confirmations').waitFor();
  expect(await deposits.getByRole('progressbar', { name: '3 of 6 confirmations' }).getAttribute('value')).toBe('3');
  await screenshots('wallet-deposit-confirming');
  await api('/dev/chain/confirm', { txId, confirmations: 3 });
  await deposits.getByText('Credited').waitFor();
  await page.getByText('Deposit credited to your wallet.').first().waitFor();
  await balanceShows('0.5\u00a0LTC');
  // The bell rings: the server wrote a notification.
  await page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

it('marks a transfer below the minimum as never credited', async () => {
  const dialog = wallet();
  const address = (await dialog.getByTestId('deposit-address').textContent()) ?? '';
  await api('/dev/chain/transfer', { address, amount: '0.00004' });
  await dialog.getByRole('region', { name: 'Your deposits' }).getByText('Below the minimum: not credited').waitFor();
  await balanceShows('0.5\u00a0LTC');
});

let spendRequestId = '';
/** A second tab on the Withdraw tab, opened before the first withdrawal: its form is still there. */
let otherTab: Page;

it('refuses a withdrawal under the minimum, then takes 0.1 with its fee and shows it pending', async () => {
  const dialog = wallet();
  await dialog.getByRole('tab', { name: 'Withdraw' }).click();
  expect(new URL(page.url()).searchParams.get('tab')).toBe('withdraw');
  await dialog.getByLabel('Amount').fill('0.02');
  await dialog.getByLabel('Address').fill(PAYOUT_ADDRESS);
  await dialog.getByRole('button', { name: 'Withdraw', exact: true }).click();
  // Refused before anything is sent: the provider's minimum is known to the form.
  await dialog.getByText('Minimum withdraw amount limit').waitFor();
  expect(await dialog.getByRole('button', { name: 'Confirm' }).count()).toBe(0);

  otherTab = await context.newPage();
  await otherTab.goto(`${server.url}/?wallet=open&tab=withdraw`);
  await otherTab.getByRole('dialog', { name: 'Wallet' }).getByLabel('Address').waitFor();

  await dialog.getByLabel('Amount').fill('0.1');
  await dialog.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const review = dialog.getByLabel('Check your withdrawal');
  await review.getByText('0.000006\u00a0LTC').waitFor();
  await review.getByText('0.100006\u00a0LTC').waitFor();
  await screenshots('wallet-withdraw-confirm');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const pending = dialog.getByLabel('Withdrawal pending');
  await pending.getByText('Pending').waitFor();
  await pending.getByText('0.000006\u00a0LTC').waitFor();
  await balanceShows('0.399994\u00a0LTC');
  const activity = await api<{ withdrawals: { spendRequestId: string; status: string }[] }>('/payment/activity?currencyCode=LTC', undefined, true);
  spendRequestId = activity.withdrawals.find((withdrawal) => withdrawal.status === 'pending')?.spendRequestId ?? '';
  expect(spendRequestId).not.toBe('');
  await screenshots('wallet-withdraw-pending');
});

it('refuses a second withdrawal while one is pending, asked from a tab opened before it', async () => {
  const dialog = otherTab.getByRole('dialog', { name: 'Wallet' });
  await dialog.getByLabel('Amount').fill('0.05');
  await dialog.getByLabel('Address').fill(PAYOUT_ADDRESS);
  await dialog.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.getByText('Your withdrawal request is in pending').waitFor();
  await otherTab.close();
  // A tab opened now shows the pending request instead of the form.
  const fresh = await context.newPage();
  await fresh.goto(`${server.url}/?wallet=open&tab=withdraw`);
  await fresh.getByRole('dialog', { name: 'Wallet' }).getByLabel('Withdrawal pending').waitFor();
  await fresh.close();
});

it('returns the funds, live, when the provider fails the withdrawal', async () => {
  const dialog = wallet();
  await api('/dev/withdrawals/settle', { spendRequestId, outcome: 'failed' });
  await dialog.getByText('could not be sent: 0.100006\u00a0LTC is back in your balance', { exact: false }).waitFor();
  await balanceShows('0.5\u00a0LTC');
  await dialog.getByLabel('Amount').waitFor();
});

it('lists all of it in the transactions, newest first, and filters by type', async () => {
  const dialog = wallet();
  await dialog.getByRole('tab', { name: 'Transactions' }).click();
  const list = dialog.getByRole('region', { name: 'Your transactions' });
  const rows = list.locator('tbody tr');
  await rows.first().waitFor();
  const texts = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 6).map((td) => td.textContent)));
  expect(texts).toEqual([
    ['Withdrawal refund', '0.100006\u00a0LTC', 'Failed', '0.399994\u00a0LTC', '0.5\u00a0LTC'],
    ['Withdrawal', '0.100006\u00a0LTC', 'Failed', '0.5\u00a0LTC', '0.399994\u00a0LTC'],
    ['Deposit', '0.00004\u00a0LTC', 'Failed', '0.5\u00a0LTC', '0.5\u00a0LTC'],
    ['Deposit', '0.5\u00a0LTC', 'Completed', '0\u00a0LTC', '0.5\u00a0LTC'],
  ]);
  await screenshots('wallet-transactions');
  await dialog.getByLabel('Type').selectOption('deposit');
  await expect.poll(() => rows.count()).toBe(2);
});

it('names its controls in Portuguese and Spanish too', async () => {
  for (const [language, labels] of [
    ['pt', { title: 'Carteira', deposit: 'Depositar', withdraw: 'Retirar', amount: 'Valor', address: 'Endereço' }],
    ['es', { title: 'Billetera', deposit: 'Depositar', withdraw: 'Retirar', amount: 'Importe', address: 'Dirección' }],
  ] as const) {
    // The language is picked in the top bar (behind the dialog while it is open), then kept.
    await page.goto(`${server.url}/`);
    await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption(language);
    await page.goto(`${server.url}/?wallet=open&tab=withdraw`);
    const dialog = page.getByRole('dialog', { name: labels.title });
    await dialog.getByRole('tab', { name: labels.withdraw }).waitFor();
    await dialog.getByLabel(labels.amount).waitFor();
    await dialog.getByLabel(labels.address).waitFor();
    await dialog.getByRole('tab', { name: labels.deposit }).click();
    await dialog.getByLabel(labels.amount).waitFor();
  }
  await page.goto(`${server.url}/`);
  await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption('en');
});

it("opens over the page the player is on, from the account menu's Wallet", async () => {
  await page.goto(`${server.url}/bonus`);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Wallet' }).click();
  await wallet().getByRole('tab', { name: 'Deposit', selected: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/bonus');
  await wallet().getByRole('button', { name: 'Close' }).click();
  await wallet().waitFor({ state: 'detached' });
  expect(new URL(page.url()).search).toBe('');
});

it('says what was held apart over a deposit limit, in the deposit line and the balances', async () => {
  // 0.5 LTC was credited today; a daily limit of 0.6 leaves room for 0.1 of the next transfer.
  await api('/responsible-gambling/update-limit', { limitType: 'deposit', daily: '0.6' }, true);
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '0.05', currencyCode: 'LTC' }, true);
  await page.goto(`${server.url}/?wallet=open&tab=deposit`);
  const dialog = wallet();
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '1' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });
  const deposits = dialog.getByRole('region', { name: 'Your deposits' });
  await deposits.getByText('Credited: 0.9\u00a0LTC held over your deposit limit').waitFor();
  await balanceShows('0.6\u00a0LTC');
  await dialog.getByRole('tab', { name: 'Transactions' }).click();
  const balances = dialog.getByLabel('Balance');
  await balances.getByText('Held').waitFor();
  await balances.getByText('0.9\u00a0LTC').waitFor();
  await dialog.getByRole('tab', { name: 'Deposit' }).click();
  await deposits.getByText('Credited: 0.9\u00a0LTC held over your deposit limit').waitFor();
  await screenshots('wallet-deposit-held');
  expect(violations).toEqual([]);
});

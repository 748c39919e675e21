import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signGameWalletRequest } from '../../server/domain/game-wallet.ts';
import { connectBrowser, keyedGames, screenshot, sharedServer, verifiedPlayer, type KeyedGame, type SharedServer } from './harness.ts';

/*
 * The bet history, as a player sees it in Chromium against the real server: the rounds are made through
 * the real seamless game wallet, as the game provider makes them (a real-money session opened by the
 * player with casinoInitGame, then bets and wins signed with the provider's wallet key). The key is
 * shared with a provider out of band: the global setup read it from the shared server's database before
 * the server started (tests/e2e/global.ts). The player sees an
 * empty history that leads to the casino, a round played while the page is open showing up without a
 * reload, the rounds with game, bet, multiplier and payout, the filters by game and by day, cards on a
 * phone and a table on a desktop, and the headings in Portuguese and Spanish.
 */

let server: SharedServer;
let games: KeyedGame[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;
let player: { email: string; password: string };
let token = '';
let sequence = 0;

async function api<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: payload,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** A signed game wallet call, as the game provider sends it (no player token: the session names the player). */
async function gameCall(game: KeyedGame, action: 'bet' | 'win', body: Record<string, string>): Promise<void> {
  const payload = JSON.stringify(body);
  const response = await fetch(`${server.apiUrl}/game-wallet/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-game-signature': signGameWalletRequest(game.secret, payload) },
    body: payload,
  });
  if (response.status !== 200) throw new Error(`game-wallet/${action}: ${response.status} ${await response.text()}`);
}

/** One round of `game`: a real-money session opened as the player, a bet, then a win unless the round stays open. */
async function playRound(game: KeyedGame, bet: string, win: string | null): Promise<void> {
  const { gameSession } = await api<{ gameSession: { sessionId: string } }>('/casino/init-game', { gameId: game.id, currencyCode: 'LTC' });
  sequence += 1;
  const roundId = `e2e-round-${process.pid}-${sequence}`;
  await gameCall(game, 'bet', { sessionId: gameSession.sessionId, roundId, transactionId: `${roundId}-bet`, amount: bet });
  if (win !== null) await gameCall(game, 'win', { sessionId: gameSession.sessionId, roundId, transactionId: `${roundId}-win`, amount: win });
}

async function screenshots(name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

function list() {
  return page.getByRole('region', { name: 'Your rounds' });
}

/** The rows on screen, each as its cells' text. */
async function rowsShown(): Promise<string[][]> {
  return list()
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').replace(/\u00a0/g, ' '))));
}

beforeAll(async () => {
  server = sharedServer();
  games = keyedGames();
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  player = await verifiedPlayer(server);
});

afterAll(async () => {
  await browser?.close();
});

it('asks a visitor to log in, then shows an empty history that leads to the casino', async () => {
  await page.goto(`${server.url}/bet-history`);
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await login.waitFor({ state: 'detached' });
  token = (await page.evaluate(() => window.localStorage.getItem('casino.token'))) ?? '';
  expect(token).not.toBe('');
  await page.getByRole('heading', { level: 1, name: 'Bet history' }).waitFor();
  await page.getByText('No bets yet. Pick a game in the casino and your rounds will show up here.').waitFor();
  expect(await page.getByRole('link', { name: 'Browse games' }).getAttribute('href')).toBe('/casino');
  // Nothing to filter yet, and no table headings over nothing.
  expect(await page.getByLabel('Game', { exact: true }).count()).toBe(0);
  expect(await page.getByRole('table').count()).toBe(0);
  await screenshots('bet-history-empty');
});

it('shows a round played while the page is open without a reload, then every round with its game, bet, multiplier and payout', async () => {
  // Funds through the payment simulator's chain: 1 LTC credited after 6 confirmations.
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '1', currencyCode: 'LTC' });
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '1' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });

  const [first, second] = games as [KeyedGame, KeyedGame];
  // The page is open: the balance moving brings the round in (the live stream), no reload.
  await playRound(first, '0.01', '0.025');
  // The bet may show first, pending, and its win a moment later (each moves the balance): wait for the win.
  // An outside provider's round has no provably fair data: a dash in the last column.
  await expect
    .poll(async () => (await rowsShown()).map((row) => row.slice(1)), { timeout: 15_000 })
    .toEqual([[first.name, '0.01 LTC', '2.5×', '0.025 LTC', 'Won', '—']]);

  await playRound(second, '0.05', '0');
  await playRound(first, '0.02', null);
  await expect.poll(rowsShown, { timeout: 15_000 }).toHaveLength(3);
  expect((await rowsShown()).map((row) => row.slice(1, 6))).toEqual([
    [first.name, '0.02 LTC', '—', '0 LTC', 'Pending'],
    [second.name, '0.05 LTC', '0×', '0 LTC', 'Lost'],
    [first.name, '0.01 LTC', '2.5×', '0.025 LTC', 'Won'],
  ]);
  // A win's payout is marked (green); the others are not.
  expect(await list().locator('[data-won="true"]').count()).toBe(1);
  // Date and time in the player's language.
  expect((await rowsShown())[0]![0]).toMatch(/\d{4}.*\d{1,2}:\d{2}/);
  await screenshots('bet-history');
});

it('is a table on a desktop and cards on a phone, never wider than the screen', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await list().getByRole('columnheader', { name: 'Multiplier' }).waitFor();
  expect(await list().locator('tbody tr').first().evaluate((row) => getComputedStyle(row).display)).toBe('table-row');
  await page.setViewportSize({ width: 390, height: 900 });
  const card = list().locator('tbody tr').first();
  expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('block');
  // Each value of a card is named by its column.
  expect(await card.locator('td').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-label')))).toEqual([
    'Date and time',
    'Game',
    'Bet amount',
    'Multiplier',
    'Payout',
    'Status',
    'Provably fair',
  ]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
});

it('filters by game, picked by name among the games played', async () => {
  const [first, second] = games as [KeyedGame, KeyedGame];
  const picker = page.getByLabel('Game', { exact: true });
  expect(await picker.locator('option').allTextContents()).toEqual(['All games', ...[first.name, second.name].sort((a, b) => a.localeCompare(b))]);
  await picker.selectOption({ label: second.name });
  await expect.poll(rowsShown).toHaveLength(1);
  expect((await rowsShown())[0]![1]).toBe(second.name);
  // The keyboard works too: back to every game.
  await picker.focus();
  await picker.selectOption({ label: 'All games' });
  await expect.poll(rowsShown).toHaveLength(3);
});

it('filters by day: a day with no rounds, today, and a "to" before "from" refused beside the field', async () => {
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  const tomorrow = await page.evaluate(() => {
    const date = new Date();
    date.setDate(date.getDate() + 1);
    return date.toLocaleDateString('en-CA');
  });
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  await from.fill(tomorrow);
  await page.getByText('No rounds match these filters.').waitFor();
  await from.fill(today);
  await expect.poll(rowsShown).toHaveLength(3);
  await to.fill(today);
  await expect.poll(rowsShown).toHaveLength(3);
  await from.fill(tomorrow);
  await page.getByText('The end date cannot be before the start date.').waitFor();
  expect(await to.getAttribute('aria-invalid')).toBe('true');
  // The list keeps the days accepted until the player mends them.
  expect(await rowsShown()).toHaveLength(3);
  await screenshots('bet-history-filters');
  await from.fill('');
  await to.fill('');
  await expect.poll(rowsShown).toHaveLength(3);
});

it('names its columns and filters in Portuguese and Spanish too', async () => {
  for (const [language, labels] of [
    ['pt', { title: 'Histórico de apostas', headers: ['Data e hora', 'Jogo', 'Valor apostado', 'Multiplicador', 'Pagamento', 'Estado', 'Jogo justo'], all: 'Todos os jogos' }],
    ['es', { title: 'Historial de apuestas', headers: ['Fecha y hora', 'Juego', 'Importe apostado', 'Multiplicador', 'Pago', 'Estado', 'Juego justo'], all: 'Todos los juegos' }],
  ] as const) {
    await page.goto(`${server.url}/`);
    await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption(language);
    await page.goto(`${server.url}/bet-history`);
    await page.getByRole('heading', { level: 1, name: labels.title }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('thead th').allTextContents()).toEqual(labels.headers);
    // The longer words (and the player's balance in the top bar) still fit the window: nothing wider than it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await page.getByLabel(labels.headers[1], { exact: true }).locator('option').first().textContent()).toBe(labels.all);
    await screenshots(`bet-history-${language}`);
  }
  await page.goto(`${server.url}/`);
  await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption('en');
});

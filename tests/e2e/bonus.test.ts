import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * The bonus screen as a new player uses it in Chromium against the real server: the offers, claiming the
 * joining bonus (the toast, back on /bonus, under Active with its wagering), a second claim queued behind
 * it, forfeiting the active one (the confirmation says what is lost; the queued one starts), then bets on
 * the house Dice table moving the wagering bar until the bonus is completed; the tabs, a card and the
 * toast in Portuguese and Spanish; screenshots at 390 and 1280 px.
 */

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let player: { email: string; password: string };
let token = '';

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

async function screenshots(name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `bonus-${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The page's bonus tabs (a navigation named after the page). */
function tab(name: string): Locator {
  return page.getByRole('navigation', { name: /^(Bonuses|Bónus|Bonos)$/ }).getByRole('link', { name, exact: true });
}

function region(name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

function card(within: Locator, name: string): Locator {
  return within.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
}

async function openTab(name: string): Promise<void> {
  await tab(name).click();
  await tab(name).and(page.locator('[aria-current="page"]')).waitFor();
}

/** Claims an offer from its card on All: the dialog, the wallet, Claim; then the toast and /bonus. */
async function claim(offer: string, texts: { claim: string; toast: string }, screenshot?: string): Promise<void> {
  await card(region(texts.claim === 'Claim' ? 'Available bonuses' : texts.claim === 'Resgatar' ? 'Bónus disponíveis' : 'Bonos disponibles'), offer)
    .getByRole('link', { name: `${texts.claim}: ${offer}` })
    .click();
  const dialog = page.getByRole('dialog', { name: offer });
  await dialog.getByRole('combobox').waitFor();
  if (screenshot) await screenshots(screenshot);
  await dialog.getByRole('button', { name: texts.claim, exact: true }).click();
  await page.getByText(texts.toast, { exact: true }).first().waitFor();
  await dialog.waitFor({ state: 'detached' });
  const url = new URL(page.url());
  expect([url.pathname, url.search]).toEqual(['/bonus', '']);
}

/** The wagering bar of a card: its value and its figures. */
async function wagering(of: Locator): Promise<[string | null, string | null]> {
  const bar = of.getByRole('progressbar');
  return [await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuetext')];
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

it('shows a new player the offers to claim, and empty tabs that say what to do next', async () => {
  await page.goto(`${server.url}/bonus`);
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await login.waitFor({ state: 'detached' });
  token = (await page.evaluate(() => window.localStorage.getItem('casino.token'))) ?? '';
  expect(token).not.toBe('');

  await page.getByRole('heading', { level: 1, name: 'Bonuses' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Bonuses' }).getByRole('link').allTextContents()).toEqual(['All', 'Active', 'Queued', 'Completed', 'Forfeited']);
  const offers = region('Available bonuses');
  await card(offers, 'Welcome bonus').waitFor();
  expect(await offers.getByRole('heading', { level: 3 }).allTextContents()).toEqual(
    expect.arrayContaining(['Welcome bonus', 'Welcome deposit bonus', 'Daily bonus', 'Loyalty bonus', 'Bet bonus', 'Refer a friend']),
  );
  // The deposit offer's percentage and minimum deposit (SPEC §9), its cap; the joining offer's amount and wagering.
  const deposit = card(offers, 'Welcome deposit bonus');
  await deposit.getByText('100% bonus on deposits of at least 0.01 LTC').waitFor();
  await deposit.getByText('Up to 1\u00a0LTC').waitFor();
  const joining = card(offers, 'Welcome bonus');
  await joining.getByText('0.01\u00a0LTC').waitFor();
  await joining.getByText('Wagering 10× the bonus').waitFor();
  await joining.getByText('Valid for 7 days after claiming').waitFor();
  // A referral offer is claimed on the refer-a-friend page, not here.
  const referral = card(offers, 'Refer a friend');
  expect(await referral.getByRole('link', { name: /^Claim/ }).count()).toBe(0);
  expect(await referral.getByRole('link', { name: 'Go to Refer a friend' }).getAttribute('href')).toBe('/refer-a-friend');
  await region('My bonuses').getByText('You have not claimed any bonus yet.').waitFor();
  await screenshots('offers');

  await openTab('Active');
  expect(new URL(page.url()).search).toBe('?tab=active');
  await region('Active').getByText('You have no active bonuses.').waitFor();
  expect(await region('Active').getByRole('link', { name: 'See bonuses to claim' }).getAttribute('href')).toBe('/bonus');
  expect(await region('Available bonuses').count()).toBe(0);
  await screenshots('empty-active');
});

it('opens an offer by its address, and Back closes it', async () => {
  await page.goto(`${server.url}/bonus?tab=all`);
  await card(region('Available bonuses'), 'Daily bonus').getByRole('link', { name: 'Details: Daily bonus' }).click();
  const dialog = page.getByRole('dialog', { name: 'Daily bonus' });
  await dialog.getByText('0.001 LTC every day. Wager it 5 times within a day.').waitFor();
  expect(new URL(page.url()).searchParams.get('bonus')).not.toBeNull();
  await page.goBack();
  await dialog.waitFor({ state: 'detached' });
  expect(new URL(page.url()).searchParams.get('bonus')).toBeNull();
});

it('claims the joining bonus: the toast, back on /bonus, under Active with its wagering', async () => {
  await page.goto(`${server.url}/bonus`);
  await claim('Welcome bonus', { claim: 'Claim', toast: 'Bonus Claimed.' }, 'claim-dialog');
  await screenshots('claimed');
  // On All, the offer says it is claimed and offers no second claim.
  const offer = card(region('Available bonuses'), 'Welcome bonus');
  await offer.getByText('Claimed: Active').waitFor();
  expect(await offer.getByRole('link', { name: 'Claim: Welcome bonus' }).count()).toBe(0);

  await openTab('Active');
  const active = card(region('Active'), 'Welcome bonus');
  await active.waitFor();
  expect(await wagering(active)).toEqual(['0', '0\u00a0LTC of 0.1\u00a0LTC wagered']);
  await active.getByText('0\u00a0LTC of 0.1\u00a0LTC wagered').waitFor();
  await active.getByText('Claimed', { exact: true }).waitFor();
  await active.getByText('Expires', { exact: true }).waitFor();
  await screenshots('active');
});

it('queues a second claim behind the active one', async () => {
  await openTab('All');
  await claim('Daily bonus', { claim: 'Claim', toast: 'Bonus Claimed.' });
  await openTab('Queued');
  const queued = card(region('Queued'), 'Daily bonus');
  await queued.getByText('Starts when your active bonus ends').waitFor();
  await screenshots('queued');
});

it('forfeits the active bonus after a confirmation that says what is lost; the queued one starts', async () => {
  await openTab('Active');
  await card(region('Active'), 'Welcome bonus').getByRole('link', { name: 'Forfeit: Welcome bonus' }).click();
  const confirm = page.getByRole('dialog', { name: 'Forfeit this bonus?' });
  await confirm.getByText('You will lose what is left of its 0.01\u00a0LTC bonus money and the wagering done so far (0\u00a0LTC of 0.1\u00a0LTC).').waitFor();
  await screenshots('forfeit-confirm');
  // Keep first: nothing changes.
  await confirm.getByRole('button', { name: 'Keep bonus' }).click();
  await confirm.waitFor({ state: 'detached' });
  await card(region('Active'), 'Welcome bonus').waitFor();

  await card(region('Active'), 'Welcome bonus').getByRole('link', { name: 'Forfeit: Welcome bonus' }).click();
  await confirm.getByRole('button', { name: 'Forfeit bonus' }).click();
  await page.getByText('Bonus Forfeited.', { exact: true }).first().waitFor();
  await confirm.waitFor({ state: 'detached' });
  // The queued one is the active one now, with its money credited.
  const daily = card(region('Active'), 'Daily bonus');
  await daily.waitFor();
  expect(await wagering(daily)).toEqual(['0', '0\u00a0LTC of 0.005\u00a0LTC wagered']);
  await openTab('Forfeited');
  await card(region('Forfeited'), 'Welcome bonus').getByText('Forfeited', { exact: true }).waitFor();
  // A one-time offer once claimed is not offered again.
  await openTab('All');
  const offer = card(region('Available bonuses'), 'Welcome bonus');
  await offer.getByText('Claimed: Forfeited').waitFor();
  expect(await offer.getByRole('link', { name: 'Claim: Welcome bonus' }).count()).toBe(0);
  // Its details say so too, with no claim to make.
  await offer.getByRole('link', { name: 'Details: Welcome bonus' }).click();
  const details = page.getByRole('dialog', { name: 'Welcome bonus' });
  await details.getByText('Claimed: Forfeited').waitFor();
  expect(await details.getByRole('button', { name: 'Claim', exact: true }).count()).toBe(0);
  await details.getByRole('button', { name: 'Close' }).click();
  await details.waitFor({ state: 'detached' });
  await openTab('Queued');
  await region('Queued').getByText('You have no queued bonuses.').waitFor();
  await screenshots('forfeited');
});

it('moves the wagering bar with each bet on a house game, until the bonus is completed', async () => {
  // Funds through the payment simulator's chain: 0.05 LTC credited after 6 confirmations.
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '0.05', currencyCode: 'LTC' });
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '0.05' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });
  const { casinoGames } = await api<{ casinoGames: { rows: { id: number; name: string }[] } }>('/casino/get-all-games?page=1&limit=50&search=Dice');
  const dice = casinoGames.rows.find((game) => game.name === 'Dice');
  if (!dice) throw new Error('no house Dice');
  const { gameSession } = await api<{ gameSession: { sessionId: string } }>('/casino/init-game', { gameId: dice.id });
  const roll = () => api(`/house/${gameSession.sessionId}/dice`, { amount: '0.002', target: 4950, direction: 'under' });

  await openTab('Active');
  const daily = card(region('Active'), 'Daily bonus');
  await daily.waitFor();
  // The page is open: each bet moves the balance, and the bar follows without a reload.
  await roll();
  await expect.poll(() => wagering(daily), { timeout: 15_000 }).toEqual(['40', '0.002\u00a0LTC of 0.005\u00a0LTC wagered']);
  await screenshots('wagering');
  await roll();
  await expect.poll(() => wagering(daily), { timeout: 15_000 }).toEqual(['80', '0.004\u00a0LTC of 0.005\u00a0LTC wagered']);
  await roll();
  await region('Active').getByText('You have no active bonuses.').waitFor();
  await openTab('Completed');
  const completed = card(region('Completed'), 'Daily bonus');
  await completed.getByText('Completed', { exact: true }).waitFor();
  expect((await wagering(completed))[0]).toBe('100');
  await screenshots('completed');
});

it('speaks Portuguese and Spanish: the tabs, a card and the toast', async () => {
  await page.goto(`${server.url}/bonus`);
  await page.getByRole('combobox', { name: 'Language' }).first().selectOption('pt');
  await page.getByRole('heading', { level: 1, name: 'Bónus' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Bónus' }).getByRole('link').allTextContents()).toEqual(['Todos', 'Ativos', 'Em espera', 'Concluídos', 'Cancelados']);
  const loyalty = card(region('Bónus disponíveis'), 'Loyalty bonus');
  await loyalty.getByText('Bónus de fidelidade').waitFor();
  await loyalty.getByText('Apostar 10× o bónus').waitFor();
  await loyalty.getByText('Válido durante 14 dias após o resgate').waitFor();
  await claim('Loyalty bonus', { claim: 'Resgatar', toast: 'Bónus resgatado.' });
  await openTab('Ativos');
  await card(region('Ativos'), 'Loyalty bonus').getByText('0\u00a0LTC de 0,05\u00a0LTC apostados').waitFor();
  await screenshots('pt');

  await page.getByRole('combobox', { name: 'Idioma' }).first().selectOption('es');
  await page.getByRole('heading', { level: 1, name: 'Bonos' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Bonos' }).getByRole('link').allTextContents()).toEqual(['Todos', 'Activos', 'En cola', 'Completados', 'Anulados']);
  await openTab('Todos');
  const bet = card(region('Bonos disponibles'), 'Bet bonus');
  await bet.getByText('Bono de apuesta').waitFor();
  await claim('Bet bonus', { claim: 'Reclamar', toast: 'Bono reclamado.' });
  await openTab('En cola');
  await card(region('En cola'), 'Bet bonus').getByText('Empieza cuando termine tu bono activo').waitFor();
  await screenshots('es');
});

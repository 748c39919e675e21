import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * Provably fair, end to end in Chromium against the real server: a player plays house rounds with real
 * money (Dice through its page in the game page's frame, which follows the SPA's language; Limbo, Plinko
 * and the Classic Slot through the house API with the player's token, as the games' pages do), sees each
 * round's server seed hash, client seed and nonce in the bet history with the server seed hidden, in the
 * Dice page's seed panel sees the next server seed's hash, sets the next client seed after it, rotates:
 * the seed revealed hashes to the hash shown before the bets, the next pair shown becomes the active one,
 * and the seed a second rotation reveals hashes to the next hash shown first; follows "Verify" and the /fairness page,
 * recomputing the bet with WebCrypto, says the seed and the result match; a tampered nonce does not match.
 * Also the page opened empty, in Portuguese and Spanish, at 390 and 1280 px, by keyboard.
 */

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The house game with this identifier, found by its name as a player searches for it. */
async function houseGame(name: string, identifier: string): Promise<number> {
  const { casinoGames } = await api<{ casinoGames: { rows: { id: number; identifier: string }[] } }>(
    `/casino/get-all-games?page=1&limit=50&search=${encodeURIComponent(name)}`,
  );
  const game = casinoGames.rows.find((row) => row.identifier === identifier);
  if (!game) throw new Error(`no ${identifier} in the catalogue`);
  return game.id;
}

async function realSession(gameId: number): Promise<string> {
  const { gameSession } = await api<{ gameSession: { sessionId: string } }>('/casino/init-game', { gameId, currencyCode: 'LTC' });
  return gameSession.sessionId;
}

async function screenshots(name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

function verdict(label: string) {
  return page.locator('li:has([data-check])', { hasText: label }).locator('[data-check]');
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

it('shows the seeds of house bets in the bet history, reveals them once rotated, and /fairness verifies every one', async () => {
  const player = await verifiedPlayer(server);
  await page.goto(`${server.url}/?dialog=login`);
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await login.waitFor({ state: 'detached' });
  token = (await page.evaluate(() => window.localStorage.getItem('casino.token'))) ?? '';
  expect(token).not.toBe('');

  // 1 LTC through the payment simulator's chain.
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '1', currencyCode: 'LTC' });
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '1' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });

  // Dice in its page, in the game page's frame: the page hands it the player's token and the language.
  const diceId = await houseGame('Dice', 'house-dice');
  await page.goto(`${server.url}/play?game=${diceId}&mode=real&from=%2Fbet-history`);
  const frame = page.frameLocator('iframe[title="Dice"]');
  await frame.getByRole('button', { name: 'Roll', exact: true }).click();
  await frame.getByText(/^Rolled /).first().waitFor({ timeout: 15_000 });
  await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption('pt');
  await frame.getByRole('button', { name: 'Lançar', exact: true }).waitFor();
  await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption('en');
  await frame.getByRole('button', { name: 'Roll', exact: true }).waitFor();
  await screenshots('fairness-dice-frame');

  // Three more rounds on three engines, as the games' pages play them.
  const limbo = await realSession(await houseGame('Limbo', 'house-limbo'));
  const plinko = await realSession(await houseGame('Plinko', 'house-plinko'));
  const slot = await realSession(await houseGame('Classic Slot', 'house-classic-slot'));
  await api(`/house/${limbo}/limbo`, { amount: '0.01', target: 200 });
  await api(`/house/${plinko}/plinko`, { amount: '0.01', rows: 12, risk: 'medium' });
  await api(`/house/${slot}/slot`, { amount: '0.01' });

  await page.goto(`${server.url}/bet-history`);
  const rows = page.getByRole('region', { name: 'Your rounds' }).locator('tbody tr');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
  // Before the rotation: the hash, the client seed and the nonce; the server seed hidden, nothing to verify yet.
  const newest = rows.first();
  await newest.getByText('Seeds').click();
  await newest.getByText('Revealed once you rotate your seed pair').waitFor();
  expect(await newest.locator('dd').nth(2).textContent()).toBe('3');
  // The hash shown before the bets: the rotation must reveal the seed it commits to.
  const committedHash = ((await newest.locator('dd').first().textContent()) ?? '').trim();
  expect(committedHash).toMatch(/^[0-9a-f]{64}$/);
  expect(await page.getByRole('link', { name: /^Verify/ }).count()).toBe(0);
  await screenshots('fairness-history-hidden');

  // The Dice page's Provably fair panel: the active pair the bets were played with, and the next pair,
  // whose server seed's hash is shown before the player picks its client seed.
  await page.goto(`${server.url}/play?game=${diceId}&mode=real&from=%2Fbet-history`);
  await frame.getByText('Provably fair', { exact: true }).click();
  const seedText = async (id: string) => ((await frame.getByTestId(id).textContent()) ?? '').trim();
  expect(await seedText('server-seed-hash')).toBe(committedHash);
  expect(await seedText('nonce')).toBe('4');
  const nextHash = await seedText('next-server-seed-hash');
  expect(nextHash).toMatch(/^[0-9a-f]{64}$/);
  expect(nextHash).not.toBe(committedHash);
  // A client seed that cannot be played is refused beside the field; a good one is saved as the next one.
  const nextField = frame.getByLabel('Your next client seed');
  await nextField.fill('two words');
  await frame.getByRole('button', { name: 'Save next client seed' }).click();
  await frame.getByText('Use 1 to 64 visible characters, no spaces or colons').waitFor();
  await nextField.fill('chosen-after-the-hash');
  await frame.getByRole('button', { name: 'Save next client seed' }).click();
  await expect.poll(() => seedText('next-client-seed'), { timeout: 15_000 }).toBe('chosen-after-the-hash');
  expect(await seedText('next-server-seed-hash')).toBe(nextHash);
  expect(await seedText('server-seed-hash')).toBe(committedHash);
  await screenshots('fairness-seeds-next');

  // Rotating reveals the server seed of every round played with the pair, and makes the shown next pair active.
  await frame.getByRole('button', { name: 'Rotate seeds' }).click();
  const revealedSeed = frame.getByTestId('revealed-seed');
  await revealedSeed.waitFor({ timeout: 15_000 });
  const revealed = { serverSeed: (await revealedSeed.textContent())!.trim(), serverSeedHash: committedHash };
  expect(revealed.serverSeed).toMatch(/^[0-9a-f]{64}$/);
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  expect(sha256(revealed.serverSeed)).toBe(committedHash);
  expect([await seedText('server-seed-hash'), await seedText('client-seed'), await seedText('nonce')]).toEqual([nextHash, 'chosen-after-the-hash', '0']);
  const afterNext = await seedText('next-server-seed-hash');
  expect([committedHash, nextHash]).not.toContain(afterNext);
  await screenshots('fairness-seeds-rotated');
  // The next rotation reveals the seed whose hash was shown as the next one before the client seed was chosen.
  await frame.getByRole('button', { name: 'Rotate seeds' }).click();
  await expect.poll(() => seedText('server-seed-hash'), { timeout: 15_000 }).toBe(afterNext);
  expect(sha256(await seedText('revealed-seed'))).toBe(nextHash);
  await page.getByRole('button', { name: 'Leave game' }).click();
  await page.waitForURL(/\/bet-history$/);
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
  await rows.first().getByText('Seeds').click();
  await rows.first().getByText(revealed.serverSeed).waitFor();
  expect(await rows.first().getByText(revealed.serverSeedHash).count()).toBe(1);
  await expect.poll(() => page.getByRole('link', { name: /^Verify/ }).count()).toBe(4);
  await screenshots('fairness-history-revealed');

  // Each bet's Verify: the page recomputes it in the browser and says both match.
  for (let index = 0; index < 4; index += 1) {
    await page.goto(`${server.url}/bet-history`);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
    const link = rows.nth(index).getByRole('link', { name: /^Verify/ });
    const game = new URL((await link.getAttribute('href'))!, server.url).searchParams.get('game');
    await link.click();
    await page.waitForURL(/\/fairness\?/);
    await page.getByRole('heading', { level: 1, name: 'Provably fair' }).waitFor();
    await expect.poll(() => verdict('Server seed hash').textContent(), { timeout: 15_000 }).toBe('Matches');
    expect(await verdict('Result').textContent(), `the ${game} bet's result`).toBe('Matches');
    expect(await page.getByText(revealed.serverSeedHash).count()).toBeGreaterThan(0);
    if (game === 'slot') await screenshots('fairness-slot');
    if (game === 'plinko') await screenshots('fairness-plinko');
  }

  // A tampered nonce draws another result: it does not match what was recorded.
  const nonce = page.getByLabel('Nonce', { exact: true });
  const was = Number(await nonce.inputValue());
  await nonce.fill(String(was + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect.poll(() => verdict('Result').textContent(), { timeout: 15_000 }).toBe('Does not match');
  expect(await verdict('Server seed hash').textContent()).toBe('Matches');
  await screenshots('fairness-tampered');
});

it('opens empty from the footer, takes a bet by keyboard, draws a Mines board, and speaks Portuguese and Spanish', async () => {
  await page.goto(`${server.url}/`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Provably fair' }).click();
  await page.waitForURL(/\/fairness$/);
  await page.getByText('Enter a bet and choose Verify: the result shows here.').waitFor();
  await page.getByRole('heading', { name: 'How it works' }).waitFor();
  await screenshots('fairness-empty');

  // By keyboard: the game, the seeds, the nonce, the mines; Enter verifies.
  await page.getByLabel('Game', { exact: true }).focus();
  await page.keyboard.press('End');
  await page.getByLabel('Game', { exact: true }).selectOption('mines');
  await page.getByLabel('Server seed (revealed)').focus();
  await page.keyboard.type('c0ffee00'.repeat(8));
  await page.keyboard.press('Tab');
  await page.keyboard.type('lucky-seven');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('4');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  const board = page.getByRole('list', { name: 'Mines on the 5 × 5 board' });
  await board.waitFor();
  expect(await board.locator('li[data-mine="true"]').count()).toBe(5);
  expect(await verdict('Server seed hash').textContent()).toBe('Not compared (nothing entered)');
  await screenshots('fairness-mines');

  // A seed of the wrong shape is said beside its field.
  await page.getByLabel('Server seed (revealed)').fill('not-a-seed');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByText('A server seed is 64 hexadecimal characters (0-9, a-f).').waitFor();

  for (const [language, title, verify] of [
    ['pt', 'Comprovadamente justo', 'Verificar'],
    ['es', 'Demostrablemente justo', 'Verificar'],
  ] as const) {
    await page.goto(`${server.url}/`);
    await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption(language);
    await page.goto(`${server.url}/fairness?game=dice&serverSeed=${'c0ffee00'.repeat(8)}&clientSeed=lucky-seven&nonce=4&target=49.50&direction=over`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('button', { name: verify }).waitFor();
    await screenshots(`fairness-${language}`);
  }
  await page.goto(`${server.url}/`);
  await page.getByRole('combobox', { name: /Language|Idioma/ }).first().selectOption('en');
});

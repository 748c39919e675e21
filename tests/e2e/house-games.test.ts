import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatAmount as shown } from '../../src/format.ts';
import { parseAmount, formatAmount } from '../../src/money.ts';
import { encodePassword } from '../../src/rules/password.ts';
import { connectBrowser, cspViolations, screenshot, scriptsLoaded, sharedServer, verifiedPlayer } from './harness.ts';

/*
 * The house games' own pages (src/views/house, build entries house/ENGINE.html) in Chromium against the
 * run's real server: a visitor plays Dice with play money; a funded player plays each of the five games
 * for real and the balance moves by exactly the stake and the payout the server answered (and the wallet
 * agrees); a Mines round is cashed out; the controls are named in Portuguese and Spanish; each page's
 * JavaScript on the wire is printed; screenshots at 390 and 1280 px.
 *
 * The pages are opened at their own address with a session made through the API (the game page's frame,
 * /play/SESSION, opens the same address).
 */

const server = sharedServer();
const ENGINES = ['dice', 'limbo', 'mines', 'plinko', 'slot'] as const;
type Engine = (typeof ENGINES)[number];
const GAME_NAMES: Record<Engine, string> = { dice: 'Dice', limbo: 'Limbo', mines: 'Mines', plinko: 'Plinko', slot: 'Classic Slot' };

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
const gameIds = {} as Record<Engine, number>;

interface HouseRound {
  amount: string;
  payout: string;
  multiplier: string | null;
  state: string;
  balance: string | null;
  outcome: { mines?: number[] | null; revealed?: number[]; end?: string | null };
}

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

async function session(engine: Engine, demo: boolean): Promise<string> {
  const answer = await api<{ gameSession: { sessionId: string } }>(demo ? '/casino/init-game-demo' : '/casino/init-game', { gameId: gameIds[engine] });
  return answer.gameSession.sessionId;
}

async function ltcBalance(): Promise<bigint> {
  const { wallets } = await api<{ wallets: { currencyCode: string; available: string; bonus: string }[] }>('/user/get-wallets');
  const ltc = wallets.find((wallet) => wallet.currencyCode === 'LTC');
  if (!ltc) throw new Error('no LTC wallet');
  // The house table's balance is available + bonus money (this player has no bonus).
  return parseAmount(ltc.available) + parseAmount(ltc.bonus);
}

async function screenshots(name: string): Promise<void> {
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `house-${name}-${width}`, { fullPage: true });
  }
  // The size of the game page's frame at 1280 × 900 beside the sidebar: what fits without scrolling.
  await page.setViewportSize({ width: 990, height: 754 });
  await screenshot(page, `house-${name}-frame`);
  if (size) await page.setViewportSize(size);
}

/** The round the page's next call of `operation` answers with. */
function nextRound(operation: RegExp): Promise<HouseRound> {
  return page
    .waitForResponse((response) => operation.test(new URL(response.url()).pathname) && response.request().method() === 'POST')
    .then(async (response) => ((await response.json()) as { data: { houseRound: HouseRound } }).data.houseRound);
}

const result = { innerText: async () => (await page.getByTestId('house-result').innerText()).replaceAll('\u00a0', ' ') };
const result_ = () => result;
const balanceText = async () => (await page.getByTestId('house-balance').innerText()).replaceAll('\u00a0', ' ');

beforeAll(async () => {
  browser = await connectBrowser();
  context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  page = await context.newPage();
  for (const engine of ENGINES) {
    const { casinoGames } = await api<{ casinoGames: { rows: { id: number; name: string }[] } }>(
      `/casino/get-all-games?page=1&limit=50&search=${encodeURIComponent(GAME_NAMES[engine])}`,
    );
    const game = casinoGames.rows.find((row) => row.name === GAME_NAMES[engine]);
    if (!game) throw new Error(`no house game ${GAME_NAMES[engine]}`);
    gameIds[engine] = game.id;
  }
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

it('lets a visitor play Dice with play money: the roll, then the result in words, the balance and the last results', async () => {
  const sessionId = await session('dice', true);
  await page.goto(`${server.url}/house/dice.html?session=${sessionId}`);
  await page.getByRole('heading', { level: 1, name: 'Dice' }).waitFor();
  // Opened on its own, the page names its game.
  expect((await page.getByRole('heading', { level: 1, name: 'Dice' }).boundingBox())?.height).toBeGreaterThan(10);
  expect(await balanceText()).toBe('Play money: 1,000');

  await page.getByLabel('Bet amount').fill('10');
  await page.getByRole('button', { name: 'Roll over' }).click();
  expect(await page.getByRole('button', { name: 'Roll over' }).getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByTestId('dice-chance').innerText()).toBe('50.00 %');
  expect(await page.getByTestId('dice-multiplier').innerText()).toBe('×1.9800');
  // Play with the keyboard: Enter on the focused button.
  const answered = nextRound(/\/house\/[^/]+\/dice$/);
  await page.getByRole('button', { name: 'Roll', exact: true }).focus();
  await page.keyboard.press('Enter');
  const round = await answered;
  expect(round.amount).toBe('10');
  const won = parseAmount(round.payout) > 0n;
  await expect.poll(() => result_().innerText()).toMatch(won ? /^Rolled \d+\.\d\d\. You won 19\.8 at ×1\.98$/ : /^Rolled \d+\.\d\d\. No win$/);
  expect(await balanceText()).toBe(`Play money: ${shown(formatAmount(990n * 100_000_000n + parseAmount(round.payout)), '', 'en')}`);
  expect(await page.getByRole('region', { name: 'Last results' }).or(page.locator('section[aria-labelledby="last-results"]')).locator('li').count()).toBe(1);

  // ½ and 2× within the table's limits.
  await page.getByRole('button', { name: '½' }).click();
  expect(await page.getByLabel('Bet amount').inputValue()).toBe('5');
  await page.getByRole('button', { name: '2×' }).click();
  await page.getByRole('button', { name: '2×' }).click();
  expect(await page.getByLabel('Bet amount').inputValue()).toBe('20');
  // A bad amount is said beside the field, nothing is sent.
  await page.getByLabel('Bet amount').fill('abc');
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.getByText('Enter a number such as 0.5').waitFor();
  await screenshots('dice-demo');
});

it('prints the JavaScript each game page downloads, on the wire (a fresh browser each: nothing cached)', async () => {
  for (const engine of ENGINES) {
    const fresh = await browser.newContext();
    const sessionId = await session(engine, true);
    const scripts = await scriptsLoaded(await fresh.newPage(), `${server.url}/house/${engine}.html?session=${sessionId}`);
    const total = scripts.reduce((sum, script) => sum + script.wireBytes, 0);
    console.log(`  house/${engine}.html: ${(total / 1024).toFixed(1)} KB of JavaScript on the wire in ${scripts.length} files`);
    for (const script of scripts) console.log(`    ${(script.wireBytes / 1024).toFixed(1)} KB ${script.encoding || 'identity'}  ${new URL(script.url).pathname}`);
    expect(scripts.every((script) => !/\/assets\/app-/.test(script.url)), "the SPA's first-load chunk").toBe(true);
    await fresh.close();
  }
});

it('saves the next client seed and rotates to the next pair shown, revealing the server seed', async () => {
  await page.getByText('Provably fair').click();
  const hash = await page.getByTestId('server-seed-hash').innerText();
  const nextHash = await page.getByTestId('next-server-seed-hash').innerText();
  await page.getByLabel('Your next client seed').fill('my-lucky-seed');
  await page.getByRole('button', { name: 'Save next client seed' }).click();
  await expect.poll(() => page.getByTestId('next-client-seed').innerText()).toBe('my-lucky-seed');
  await page.getByRole('button', { name: 'Rotate seeds' }).click();
  await expect.poll(() => page.getByTestId('server-seed-hash').innerText()).toBe(nextHash);
  expect(nextHash).not.toBe(hash);
  expect(await page.getByTestId('client-seed').innerText()).toBe('my-lucky-seed');
  expect(await page.getByTestId('revealed-seed').innerText()).toMatch(/^[0-9a-f]{64}$/);
  await screenshots('dice-seeds');
  expect(await page.getByRole('link', { name: 'How to verify a bet' }).getAttribute('target')).toBe('_top');
});

it('names the controls in Portuguese and Spanish', async () => {
  const sessionId = await session('dice', true);
  for (const [language, names] of [
    ['pt', { amount: 'Valor da aposta', play: 'Lançar', under: 'Abaixo de', money: 'Dinheiro fictício: 1.000' }],
    ['es', { amount: 'Importe de la apuesta', play: 'Tirar', under: 'Por debajo', money: 'Dinero ficticio: 1000' }],
  ] as const) {
    await page.evaluate((chosen) => window.localStorage.setItem('casino.language', chosen), language);
    await page.goto(`${server.url}/house/dice.html?session=${sessionId}`);
    await page.getByRole('button', { name: names.play, exact: true }).waitFor();
    await page.getByLabel(names.amount).waitFor();
    await page.getByRole('button', { name: names.under }).waitFor();
    await page.getByRole('button', { name: '½' }).waitFor();
    expect(await balanceText()).toBe(names.money);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
  }
  await page.evaluate(() => window.localStorage.setItem('casino.language', 'en'));
});

it('lets a funded player play each game for real: the balance moves by exactly the stake and the payout', async () => {
  const player = await verifiedPlayer(server);
  token = (await api<{ accessToken: string }>('/user/login', { email: player.email, password: encodePassword(player.password) })).accessToken;
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '1', currencyCode: 'LTC' });
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '1' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });
  await page.evaluate((saved) => window.localStorage.setItem('casino.token', saved), token);

  const plays: Record<Exclude<Engine, 'mines'>, { path: RegExp; play: string; prepare?: () => Promise<void> }> = {
    dice: { path: /\/dice$/, play: 'Roll' },
    limbo: { path: /\/limbo$/, play: 'Play', prepare: () => page.getByLabel('Target multiplier').fill('1.5') },
    plinko: {
      path: /\/plinko$/,
      play: 'Drop ball',
      prepare: async () => {
        await page.getByLabel('Rows').selectOption('16');
        await page.getByLabel('Risk').selectOption('high');
      },
    },
    slot: { path: /\/slot$/, play: 'Spin' },
  };
  for (const [engine, how] of Object.entries(plays) as [Exclude<Engine, 'mines'>, (typeof plays)['dice']][]) {
    const sessionId = await session(engine, false);
    const before = await ltcBalance();
    await page.goto(`${server.url}/house/${engine}.html?session=${sessionId}`);
    await page.getByRole('heading', { level: 1, name: GAME_NAMES[engine] }).waitFor();
    expect(await balanceText()).toBe(`Balance: ${formatAmount(before)} LTC`);
    await page.getByLabel('Bet amount').fill('0.01');
    await how.prepare?.();
    const answered = nextRound(how.path);
    await page.getByRole('button', { name: how.play, exact: true }).click();
    const round = await answered;
    expect(round.state).toBe('settled');
    const after = before - parseAmount('0.01') + parseAmount(round.payout);
    expect(parseAmount(round.balance ?? '-1')).toBe(after);
    expect(await ltcBalance()).toBe(after);
    await expect.poll(() => result_().innerText()).toMatch(parseAmount(round.payout) >= parseAmount('0.01') ? /You won .* LTC at ×/ : parseAmount(round.payout) > 0n ? /You got back .* LTC at ×0\.\d+$/ : /No win$/);
    expect(await balanceText()).toBe(`Balance: ${formatAmount(after)} LTC`);
    await screenshots(`${engine}-real`);
  }
});

it('cashes out a Mines round: the stake when it starts, the cash out paid', async () => {
  const sessionId = await session('mines', false);
  await page.goto(`${server.url}/house/mines.html?session=${sessionId}`);
  await page.getByRole('heading', { level: 1, name: 'Mines' }).waitFor();
  await page.getByLabel('Bet amount').fill('0.01');
  await page.getByRole('combobox', { name: 'Mines' }).selectOption('1');
  let cashed: HouseRound | null = null;
  for (let attempt = 0; attempt < 5 && cashed === null; attempt += 1) {
    const before = await ltcBalance();
    const started = nextRound(/\/mines$/);
    await page.getByRole('button', { name: 'Bet', exact: true }).click();
    expect((await started).state).toBe('open');
    expect(await ltcBalance()).toBe(before - parseAmount('0.01'));
    await page.getByText('Pick a tile, or cash out.').waitFor();
    const revealed = nextRound(/\/mines\/reveal$/);
    await page.getByRole('button', { name: `Tile ${attempt + 1}`, exact: true }).click();
    const reveal = await revealed;
    if (reveal.state !== 'open') {
      // A mine (1 in 25): the round is lost, the board shows it; again.
      await expect.poll(() => result_().innerText()).toBe('You hit a mine. No win');
      await page.getByRole('button', { name: `Tile ${attempt + 1}: mine` }).waitFor();
      continue;
    }
    await page.getByRole('button', { name: `Tile ${attempt + 1}: gem` }).waitFor();
    const cashOut = page.getByRole('button', { name: `Cash out ×${reveal.multiplier}` });
    await cashOut.waitFor();
    const paid = nextRound(/\/mines\/cash-out$/);
    await cashOut.click();
    cashed = await paid;
    expect(cashed.outcome.end).toBe('cashed');
    expect(cashed.outcome.mines).toHaveLength(1);
    const after = before - parseAmount('0.01') + parseAmount(cashed.payout);
    expect(await ltcBalance()).toBe(after);
    await expect.poll(() => result_().innerText()).toMatch(/^You won 0\.0\d+ LTC at ×1\.0\d+$/);
    expect(await balanceText()).toBe(`Balance: ${formatAmount(after)} LTC`);
  }
  expect(cashed).not.toBeNull();
  await screenshots('mines-real');
});

it('opens Dice from the game page in demo and plays it in the frame', async () => {
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const violations = cspViolations(visitor);
  const tab = await visitor.newPage();
  await tab.goto(`${server.url}/play?game=${gameIds.dice}&mode=demo`);
  await tab.waitForURL(/\/play\/[A-Za-z0-9_-]{32,}/);
  const frame = tab.frameLocator('iframe[title="Dice"]');
  await frame.getByRole('heading', { level: 1, name: 'Dice' }).waitFor();
  expect((await frame.getByTestId('house-balance').innerText()).replaceAll('\u00a0', ' ')).toBe('Play money: 1,000');
  await frame.getByRole('button', { name: 'Roll', exact: true }).click();
  await expect.poll(async () => frame.getByTestId('house-result').innerText()).toMatch(/^Rolled \d+\.\d\d\. (You won 1\.98 at ×1\.98|No win)$/);
  await screenshot(tab, 'house-play-dice-demo-390');
  // The SPA frames its own house page under both pages' policies, with no violation.
  expect(violations).toEqual([]);
  await visitor.close();
});

it("plays Limbo for real in the game page's frame and the balance pill follows", async () => {
  const player = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const tab = await player.newPage();
  await tab.goto(server.url);
  await tab.evaluate((saved) => window.localStorage.setItem('casino.token', saved), token);
  const before = await ltcBalance();
  await tab.goto(`${server.url}/play?game=${gameIds.limbo}&mode=real`);
  await tab.waitForURL(/\/play\/[A-Za-z0-9_-]{32,}/);
  const frame = tab.frameLocator('iframe[title="Limbo"]');
  await frame.getByRole('heading', { level: 1, name: 'Limbo' }).waitFor();
  await tab.getByRole('button', { name: `Balance ${shown(formatAmount(before), 'LTC', 'en')}. Choose a wallet` }).waitFor();
  await frame.getByLabel('Bet amount').fill('0.01');
  const answered = tab.waitForResponse((response) => /\/house\/[^/]+\/limbo$/.test(new URL(response.url()).pathname));
  await frame.getByRole('button', { name: 'Play', exact: true }).click();
  const round = ((await (await answered).json()) as { data: { houseRound: HouseRound } }).data.houseRound;
  const after = before - parseAmount('0.01') + parseAmount(round.payout);
  await tab.getByRole('button', { name: `Balance ${shown(formatAmount(after), 'LTC', 'en')}. Choose a wallet` }).waitFor();
  expect((await frame.getByTestId('house-balance').innerText()).replaceAll('\u00a0', ' ')).toBe(`Balance: ${formatAmount(after)} LTC`);
  // The frame (some 990 px at 1280) has the controls on the left and the result beside them, within its height;
  // the heading only for screen readers, as the SPA's bar above names the game.
  const frameBox = await tab.locator('iframe[title="Limbo"]').boundingBox();
  const controls = await frame.locator('[data-area="controls"]').boundingBox();
  const board = await frame.locator('[data-area="board"]').boundingBox();
  const heading = await frame.getByRole('heading', { level: 1, name: 'Limbo' }).boundingBox();
  if (!frameBox || !controls || !board || !heading) throw new Error('no layout');
  expect(frameBox.width).toBeLessThan(1024);
  expect(controls.x + controls.width).toBeLessThanOrEqual(board.x);
  expect(board.y + board.height).toBeLessThanOrEqual(frameBox.y + frameBox.height);
  expect(heading.height).toBeLessThanOrEqual(1);
  await screenshot(tab, 'house-play-limbo-real-1280');
  await player.close();
});

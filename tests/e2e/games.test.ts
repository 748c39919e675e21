import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * The game side against the real server: the lobby's tiles, a category grid paged by scrolling, the
 * search, the provider filter, the heart asking a visitor to log in, a demo game page opening its house
 * game in a frame; a player's favourite kept across a reload, a real-money game page closed back to where
 * it was opened, a live dealer's page saying it cannot be played (never an empty frame) and leading to the
 * Originals, whose games open their engine's page.
 */

let server: SharedServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function tileNames(page: Page): Promise<string[]> {
  return page.locator('main article[aria-label]').evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label') ?? ''));
}

/**
 * The rows of tiles drawn now (their index and game ids) once a row covers the middle of the screen, then
 * the page scrolled on by `fraction` of a screen (0: read only); and whether it was at its end.
 */
async function readRowsAndScroll(page: Page, fraction: number): Promise<{ read: [number, string[]][]; atEnd: boolean }> {
  return page.evaluate(async (by) => {
    // The rows for where the page is scrolled are drawn with a later frame (later still on a busy
    // machine): wait until a row covers the middle of the screen, so no row is scrolled past unread.
    const middle = window.innerHeight / 2;
    const covers = (box: DOMRect) => box.top <= middle && box.bottom >= middle;
    const drawn = () => {
      const rows = [...document.querySelectorAll('main [data-index]')];
      const grid = rows[0]?.parentElement;
      if (!grid || !covers(grid.getBoundingClientRect())) return true;
      // Between two rows (their gap) counts as drawn too.
      return rows.some((row) => {
        const box = row.getBoundingClientRect();
        return box.top <= middle + 12 && box.bottom >= middle - 12;
      });
    };
    for (let frame = 0; frame < 120 && !drawn(); frame += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
    const read = [...document.querySelectorAll('main [data-index]')].map((row) => [
      Number(row.getAttribute('data-index')),
      [...row.querySelectorAll('article')].map((tile) => new URL(tile.querySelector('a')!.href).searchParams.get('game') ?? ''),
    ]);
    window.scrollBy(0, window.innerHeight * by);
    return { read: read as [number, string[]][], atEnd: window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2 };
  }, fraction);
}

it('shows a visitor the lobby, a category paged by scrolling, a search and a provider filter', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url);
  await page.getByRole('heading', { level: 2, name: 'Slots' }).waitFor();
  await page.locator('main article[aria-label]').first().waitFor();
  expect((await tileNames(page)).length).toBeGreaterThan(6);
  await screenshot(page, 'games-lobby-1280');

  // A category's "View all": a grid of 24, and 24 more once the end of the grid comes near.
  await page.getByRole('region', { name: 'Slots' }).getByRole('link', { name: 'View all' }).click();
  await page.waitForURL(/\/category\/slots$/);
  await page.getByRole('heading', { level: 1, name: 'Slots' }).waitFor();
  const status = page.getByText(/^Showing \d+ of \d+ games$/);
  await status.waitFor();
  const counts = async () => (await status.textContent())!.match(/^Showing (\d+) of (\d+)/)!.slice(1).map(Number) as [number, number];
  const [firstShown, total] = await counts();
  expect(total).toBeGreaterThan(firstShown);
  const first = await tileNames(page);
  // Down the whole grid, reading each row of tiles while it is in the page (only rows near the screen
  // are): the next page comes as the end nears, and every game of the category is listed once.
  const rows = new Map<number, string[]>();
  for (let step = 0; step < 300; step += 1) {
    const seen = await readRowsAndScroll(page, 1 / 2);
    for (const [index, ids] of seen.read) rows.set(index, ids);
    // Done once every game is in and the page is at its end, asked in that order: the last page may have
    // come after `atEnd` was read, making the grid longer than the end that was reached.
    if (seen.atEnd && (await counts())[0] === total) {
      const stillAtEnd = await page.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2);
      if (stillAtEnd) break;
    }
    await page.waitForTimeout(30);
  }
  expect(await counts()).toEqual([total, total]);
  // The last rows, drawn with the frame after the last page came.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  for (const [index, ids] of (await readRowsAndScroll(page, 0)).read) rows.set(index, ids);
  // A row drawn late on a busy machine can still be scrolled past unread: with the whole grid loaded,
  // the rows not read yet are read on the way down again, in quarter screens.
  const missing = () => Array.from({ length: Math.max(...rows.keys()) + 1 }, (_, index) => index).filter((index) => !rows.has(index));
  for (let pass = 0; pass < 2 && missing().length > 0; pass += 1) {
    await page.evaluate(() => window.scrollTo(0, 0));
    for (let step = 0; step < 600; step += 1) {
      const seen = await readRowsAndScroll(page, 1 / 4);
      for (const [index, ids] of seen.read) rows.set(index, ids);
      if (seen.atEnd || missing().length === 0) break;
    }
  }
  const ids = [...rows.entries()].sort((x, y) => x[0] - y[0]).flatMap(([, row]) => row);
  expect(ids.length).toBe(total);
  expect(new Set(ids).size).toBe(total);

  // A search for part of a real game's name finds it.
  const name = first[0]!;
  const part = name.split(' ').slice(-1)[0]!.toLowerCase();
  await page.goto(`${server.url}/search`);
  await page.getByRole('searchbox', { name: 'Search' }).fill(part);
  await page.waitForURL(new RegExp(`[?&]q=${part}`));
  await page.locator(`main article[aria-label="${name}"]`).waitFor();
  await page.reload();
  await page.locator(`main article[aria-label="${name}"]`).waitFor();
  expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(part);

  // A provider chosen: every tile is that provider's, and the address says so.
  await page.goto(`${server.url}/games`);
  await page.locator('main article[aria-label]').first().waitFor();
  await page.getByRole('combobox', { name: 'Providers' }).selectOption({ label: 'Nebula Reels' });
  await page.waitForURL(/provider=nebula-reels/);
  await page.getByText(/^Showing \d+ of \d+ games$/).waitFor();
  const providers = await page.locator('main article[aria-label] p').allTextContents();
  expect(providers.length).toBeGreaterThan(0);
  expect(new Set(providers)).toEqual(new Set(['Nebula Reels']));
  await page.close();
});

it('asks a visitor to log in for a heart and for real money, and opens a demo game page', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${server.url}/casino`);
  const tile = page.locator('main article[aria-label]').first();
  await tile.waitFor();
  const name = (await tile.getAttribute('aria-label'))!;
  await tile.getByRole('button', { name: /^Add to favourites/ }).click();
  await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  await page.getByText('Please login first').first().waitFor();
  await screenshot(page, 'games-casino-390');
  await page.goto(`${server.url}/casino`);
  await page.locator('main article[aria-label]').first().waitFor();
  await page.locator(`main article[aria-label="${name}"]`).getByRole('link', { name: /^Demo/ }).click();
  await page.waitForURL(/\/play\/[A-Za-z0-9_-]{32,}/);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  // The game's engine page opens in a frame named by the game, and plays with play money.
  await page.frameLocator(`iframe[title="${name}"]`).getByText('Play money', { exact: false }).first().waitFor();
  const frame = page.locator(`iframe[title="${name}"]`);
  expect(await frame.getAttribute('src')).toMatch(/^\/house\/(dice|limbo|mines|plinko|slot)\.html\?session=[A-Za-z0-9_-]{32,}$/);
  await screenshot(page, 'games-demo-390');
  // A reload reads the same session back.
  await page.reload();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.close();
});

it("keeps a player's favourite across a reload and closes a real-money game back to where it was opened", async () => {
  const player = await verifiedPlayer(server);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/?dialog=login`);
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('Email or username').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Account' }).waitFor();
  await page.goto(`${server.url}/games?category=slots`);
  const tile = page.locator('main article[aria-label]').first();
  await tile.waitFor();
  const name = (await tile.getAttribute('aria-label'))!;
  await tile.getByRole('button', { name: /^Add to favourites/ }).click();
  // The heart turns at once and the call follows: leaving the page before it is answered would cancel it.
  await tile.locator('button[aria-pressed="true"][aria-busy="false"]').waitFor();
  await page.goto(`${server.url}/favourites`);
  await page.locator(`main article[aria-label="${name}"]`).waitFor();
  await page.reload();
  await page.locator(`main article[aria-label="${name}"]`).getByRole('button', { name: /^Remove from favourites/ }).waitFor();

  await page.goto(`${server.url}/games?category=slots`);
  await page.locator(`main article[aria-label="${name}"]`).hover();
  await page.locator(`main article[aria-label="${name}"]`).getByRole('link', { name: /^Play/ }).click();
  await page.waitForURL(/\/play\/[A-Za-z0-9_-]{32,}/);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Demo', exact: true }).waitFor();
  // A new player's wallet is empty: the page says what to do instead of taking bets it cannot pay.
  await page.getByText('Your LTC balance is empty. Deposit to play for real money.').waitFor();
  // The game's page comes up in its frame (covered by "Starting the game" until then).
  await expect.poll(() => page.locator('[role="status"][aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
  await page.frameLocator(`iframe[title="${name}"]`).locator('button').first().waitFor();
  await screenshot(page, 'games-play-1280');
  await page.getByRole('button', { name: 'Leave game' }).click();
  await page.waitForURL(/\/games\?category=slots$/);

  // A live dealer's table: no engine stands in for it, and its page says so instead of an empty frame.
  await page.goto(`${server.url}/live-casino`);
  const live = page.locator('main article[aria-label]').first();
  await live.waitFor();
  const liveName = (await live.getAttribute('aria-label'))!;
  await live.hover();
  await live.getByRole('link', { name: /^Play/ }).click();
  await page.waitForURL(/\/play\/[A-Za-z0-9_-]{32,}/);
  await page.getByRole('heading', { level: 1, name: liveName }).waitFor();
  await page.getByText('cannot be played in this casino yet', { exact: false }).waitFor();
  expect(await page.locator('iframe').count()).toBe(0);
  await screenshot(page, 'games-unavailable-1280');
  await page.getByRole('link', { name: 'Play the Originals' }).click();
  await page.waitForURL(/\/category\/originals$/);
  // An Original opens its engine's page.
  const dice = page.locator('main article[aria-label="Dice"]');
  await dice.hover();
  await dice.getByRole('link', { name: /^Play/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Dice' }).waitFor();
  await page.locator('iframe[title="Dice"]').waitFor();
  expect(await page.locator('iframe[title="Dice"]').getAttribute('src')).toMatch(/^\/house\/dice\.html\?session=[A-Za-z0-9_-]{32,}$/);
  await context.close();
});

it('scrolls the whole catalogue on a phone keeping only the rows near the screen in the page', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${server.url}/games`);
  const status = page.getByText(/^Showing [\d,]+ of [\d,]+ games$/);
  await status.waitFor();
  const total = (await status.textContent())!.match(/of ([\d,]+)/)![1]!;
  let most = 0;
  for (let step = 0; step < 400 && (await status.textContent()) !== `Showing ${total} of ${total} games`; step += 1) {
    most = Math.max(most, await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.querySelectorAll('main article[aria-label]').length;
    }));
    await page.waitForTimeout(50);
  }
  await expect(status.textContent()).resolves.toBe(`Showing ${total} of ${total} games`);
  expect(Number(total.replace(/,/g, ''))).toBeGreaterThan(200);
  // Two columns on a phone: the rows on screen and a few around them, whatever the length of the list.
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(40);
  // The end of the list is reached: the grid ends with the last game and nothing more to load.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
  // Once the grid rests, every tile in the page shows its cover.
  await page.waitForFunction(() => {
    const tiles = [...document.querySelectorAll('main article[aria-label]')];
    return tiles.length > 0 && tiles.every((tile) => {
      const cover = tile.querySelector('img');
      return cover !== null && cover.complete && cover.naturalWidth > 0;
    });
  });
  await page.close();
});

it.each([
  ['pt', 'Jogar', 'Demo', 'Pesquisar', 'Adicionar aos favoritos'],
  ['es', 'Jugar', 'Demo', 'Buscar', 'Añadir a favoritos'],
  ['en', 'Play', 'Demo', 'Search', 'Add to favourites'],
] as const)('names the game controls in %s, on a phone and on a desktop', async (language, play, demo, search, favourite) => {
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((chosen) => localStorage.setItem('casino.language', chosen), language);
    const page = await context.newPage();
    await page.goto(`${server.url}/category/slots`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('searchbox', { name: search }).waitFor();
    const tile = page.locator('main article[aria-label]').first();
    await tile.waitFor();
    await tile.getByRole('link', { name: new RegExp(`^${play}`) }).waitFor({ state: 'attached' });
    await tile.getByRole('link', { name: new RegExp(`^${demo}`) }).waitFor({ state: 'attached' });
    await tile.getByRole('button', { name: new RegExp(`^${favourite}`) }).waitFor();
    await screenshot(page, `games-${language}-${width}`);
    await context.close();
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { connectBrowser, screenshot, sharedServer, type SharedServer } from './harness.ts';

/*
 * The shell as a player sees it (DESIGN.md, src/views/Layout.tsx): one-row top bars of at most 64 px
 * (desktop) and 56 px (phone), no page wider than a 390 px phone, one left edge for the top bar and the
 * page, toasts that never cover a dialog's title or close button, nothing that moves once painted.
 */

const DEMO = { email: 'demo@casino.local', password: 'Demo@1234' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Every route of src/views/App.tsx (the wallet's old /wallet/* addresses only lead to its dialog: tests/e2e/wallet.test.ts). */
const ROUTES = [
  '/',
  '/casino',
  '/live-casino',
  '/sports',
  '/games',
  '/favourites',
  '/search',
  '/category/slots',
  '/provider/nebula-reels',
  '/bonus',
  '/bet-history',
  '/profile',
  '/responsible-gambling',
  '/refer-a-friend',
  '/faq',
  '/terms',
  '/privacy',
  '/about',
  '/support',
];

let server: SharedServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  const response = await fetch(`${server.apiUrl}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO.email, password: Buffer.from(DEMO.password).toString('base64') }),
  });
  expect(response.status).toBe(200);
  token = ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
});

afterAll(async () => {
  await browser?.close();
});

type Who = 'visitor' | 'player';

/**
 * A page at a size, as a visitor or as the signed-in demo player, counting layout shifts the way
 * Lighthouse's CLS does (shifts without recent input).
 */
async function openPage(viewport: { width: number; height: number }, who: Who): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.addInitScript((saved: string | null) => {
    if (saved) window.localStorage.setItem('casino.token', saved);
    const shifts = { total: 0 };
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.total += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  }, who === 'player' ? token : null);
  return page;
}

async function visit(page: Page, path: string, who: Who): Promise<void> {
  // A player's page keeps its live event stream open, so its network is never idle: it is awaited by
  // what it shows instead.
  await page.goto(`${server.url}${path}`, { waitUntil: who === 'player' ? 'load' : 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // The header has settled: a player's account menu and balance, or a visitor's Log in.
  if (who === 'player') {
    await page.getByRole('button', { name: 'Account' }).waitFor();
    await page.getByRole('button', { name: /^Balance / }).waitFor();
  } else {
    await page.getByRole('button', { name: 'Log in' }).first().waitFor();
  }
}

/** Where an element ends up once it stops moving (a toast slides in): the same box on two frames running. */
async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number } | null> {
  let previous = await locator.boundingBox();
  for (;;) {
    await locator.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const box = await locator.boundingBox();
    if (JSON.stringify(box) === JSON.stringify(previous)) return box;
    previous = box;
  }
}

const topBarHeight = (page: Page) => page.getByRole('banner').evaluate((bar) => bar.getBoundingClientRect().height);
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { layoutShifts: { total: number } }).layoutShifts.total);

describe.each(['visitor', 'player'] as const)('the shell for a %s', (who) => {
  it('keeps the top bar to one row: at most 56 px on a phone and 64 px on a desktop', async () => {
    for (const [viewport, most] of [
      [PHONE, 56],
      [DESKTOP, 64],
    ] as const) {
      const page = await openPage(viewport, who);
      await visit(page, '/', who);
      expect(await topBarHeight(page), `${viewport.width} px`).toBeLessThanOrEqual(most);
      await page.close();
    }
  });
});

// Each route is a new document, and most of a visit is waiting for the network to be idle: the four
// (visitor or player, phone or desktop) walks through every route run side by side.
describe.concurrent.each([
  ['visitor', 'phone', PHONE],
  ['visitor', 'desktop', DESKTOP],
  ['player', 'phone', PHONE],
  ['player', 'desktop', DESKTOP],
] as const)('every route for a %s on a %s', (who, _device, viewport) => {
  it(`fits the screen${viewport === PHONE ? ' of a 390 px phone' : ''} and nothing moves once painted (layout shift under 0.02)`, async () => {
    const problems: string[] = [];
    const page = await openPage(viewport, who);
    for (const path of ROUTES) {
      // Each visit is a new document: the shifts counted are this route's, up to when the network is idle.
      await visit(page, path, who);
      const shift = await layoutShift(page);
      if (shift >= 0.02) problems.push(`${viewport.width} px ${path}: layout shift ${shift.toFixed(3)}`);
      if (viewport === PHONE) {
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        if (scrollWidth > innerWidth) problems.push(`${path}: ${scrollWidth} px wide`);
        if ((await topBarHeight(page)) > 56) problems.push(`${path}: top bar taller than 56 px`);
      }
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});

it('lines the page up with the top bar: one left edge and one width', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await openPage(viewport, 'visitor');
    await visit(page, '/casino', 'visitor');
    const brand = await page.getByRole('banner').getByRole('link').first().boundingBox();
    const title = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(brand && title && Math.abs(brand.x - title.x), `${viewport.width} px`).toBeLessThanOrEqual(1);
    await page.close();
  }
});

it('shows the navigation in a sidebar on a desktop and in a tab bar and menu on a phone', async () => {
  const desktop = await openPage(DESKTOP, 'visitor');
  await visit(desktop, '/', 'visitor');
  const sidebar = desktop.getByRole('navigation', { name: 'Main menu' });
  await sidebar.getByRole('link', { name: 'Responsible gambling' }).waitFor();
  expect(await desktop.getByRole('navigation', { name: 'Shortcuts' }).isVisible()).toBe(false);
  // Collapsed to icons, the links keep their names.
  await desktop.getByRole('button', { name: 'Collapse menu' }).click();
  const collapsed = await sidebar.boundingBox();
  expect(collapsed?.width).toBeLessThanOrEqual(80);
  await sidebar.getByRole('link', { name: 'Casino', exact: true }).click();
  await desktop.waitForURL(`${server.url}/casino`);
  await desktop.getByRole('button', { name: 'Expand menu' }).click();
  await screenshot(desktop, 'shell-1280');
  await desktop.close();

  const phone = await openPage(PHONE, 'visitor');
  await visit(phone, '/', 'visitor');
  const tabs = phone.getByRole('navigation', { name: 'Shortcuts' });
  const bar = await tabs.boundingBox();
  expect(bar && bar.y + bar.height).toBe(PHONE.height);
  await tabs.getByRole('button', { name: 'Menu' }).click();
  const sheet = phone.getByRole('dialog', { name: 'Menu' });
  await sheet.getByRole('combobox', { name: 'Language' }).selectOption('pt');
  await sheet.getByRole('link', { name: 'Jogo responsável' }).waitFor();
  await screenshot(phone, 'menu-390');
  await phone.keyboard.press('Escape');
  expect(await phone.getByRole('dialog').count()).toBe(0);
  await phone.close();
});

it("opens the player's account menu from the keyboard: Profile, Wallet, Bet history, Log out", async () => {
  const page = await openPage(DESKTOP, 'player');
  await visit(page, '/', 'player');
  const account = page.getByRole('button', { name: 'Account' });
  await account.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Account' });
  const items = await menu.getByRole('menuitem').allTextContents();
  expect(items).toEqual(['Profile', 'Wallet', 'Bet history', 'Log out']);
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Wallet');
  await screenshot(page, 'account-menu-1280');
  await page.keyboard.press('Escape');
  expect(await menu.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Account');
  await page.close();
});

it("never lets a toast cover a dialog's title or close button", async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await openPage(viewport, 'visitor');
    await visit(page, '/?dialog=forgot-password', 'visitor');
    const dialog = page.getByRole('dialog', { name: 'Forgot password' });
    await dialog.getByLabel('Email').fill('someone@example.com');
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    const toast = page.locator('[data-rht-toaster] [role="status"]').first();
    await toast.waitFor();
    const toastBox = await settledBox(toast);
    const titleBox = await dialog.getByRole('heading').first().boundingBox();
    const closeBox = await dialog.getByRole('button', { name: 'Close' }).first().boundingBox();
    for (const [what, box] of [
      ['title', titleBox],
      ['close button', closeBox],
    ] as const) {
      const overlaps =
        toastBox !== null &&
        box !== null &&
        toastBox.x < box.x + box.width &&
        box.x < toastBox.x + toastBox.width &&
        toastBox.y < box.y + box.height &&
        box.y < toastBox.y + toastBox.height;
      expect(overlaps, `${viewport.width} px: the toast covers the dialog's ${what}`).toBe(false);
    }
    await screenshot(page, `dialog-toast-${viewport.width}`);
    await page.close();
  }
});

it('names each page in the browser tab, in the chosen language', async () => {
  const page = await openPage(DESKTOP, 'visitor');
  await visit(page, '/casino', 'visitor');
  expect(await page.title()).toBe('Casino · Crypto Casino');
  await visit(page, '/terms', 'visitor');
  expect(await page.title()).toBe('Terms and conditions · Crypto Casino');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await page.waitForFunction(() => document.title.includes('Términos'));
  await page.close();
});

it('shows the lobby, the bet history and the profile at 390 and 1280 px (their screenshots with SCREENSHOTS=1)', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    for (const [who, path, name] of [
      ['visitor', '/', 'lobby'],
      ['player', '/bet-history', 'bet-history'],
      ['player', '/profile', 'profile'],
    ] as const) {
      const page = await openPage(viewport, who);
      await visit(page, path, who);
      await screenshot(page, `${name}-${who}-${viewport.width}`);
      await page.close();
    }
  }
});

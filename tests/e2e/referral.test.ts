import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer } from '../helpers/players.ts';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * Refer a friend in Chromium against the real server: the referrer copies the link from the Refer a
 * friend page; a friend opens it in a browser of their own, registers with the code filled in and
 * verifies through the simulator's mailbox; the referrer sees the friend pending, then, once the
 * friend's first deposit is credited, qualified, and claims the reward (toast, /bonus, the wallet's
 * balance up). The referrer's own mailbox with a +tag cannot register with the code. The page and the toast in English, Portuguese and Spanish, at
 * 390 and 1280 px. Then the wallet's bonus balance, and a withdrawal refused while a bonus is being
 * wagered, explained with the way to the bonus.
 */

const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';

let server: SharedServer;
let browser: Browser;
let referrer: BrowserContext;
let page: Page;
let referralCode = '';
let link = '';
/** The referrer's email. */
let referrerEmail = '';
/** The friend who registered in the browser. */
let friendEmail = '';
/** The reward per friend, as the server's settings say (GET /common/get-settings). */
let reward = '';
let limit = 0;

interface Session {
  accessToken: string;
}

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

async function logIn(email: string): Promise<string> {
  const session = await api<Session>('/user/login', { email, password: encodePassword('Secret@123') });
  return session.accessToken;
}

/** A browser context whose pages start logged in as the player of `token`, in `language`. */
async function playerContext(token: string, language = 'en'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await context.addInitScript(
    ([saved, lang]) => {
      window.localStorage.setItem('casino.token', saved!);
      if (!window.localStorage.getItem('casino.language')) window.localStorage.setItem('casino.language', lang!);
    },
    [token, language],
  );
  return context;
}

async function setLanguage(language: string) {
  await page.evaluate((lang) => window.localStorage.setItem('casino.language', lang), language);
}

async function screenshots(target: Page, name: string, fullPage = true) {
  for (const width of [390, 1280]) {
    await target.setViewportSize({ width, height: 900 });
    await screenshot(target, `${name}-${width}`, { fullPage: fullPage && width === 390 });
  }
  await target.setViewportSize({ width: 1280, height: 900 });
}

/** The value shown under a figure's label (the friends' figures, the wallet's balances) in `scope` of `on`. */
function figure(on: Page, label: string, scope: Page | ReturnType<Page['getByRole']> = on) {
  return scope.locator('dl > div').filter({ has: on.locator('dt').getByText(label, { exact: true }) }).locator('dd');
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  const { settings } = await api<{ settings: { referralReward: string; referralLimit: number } }>('/common/get-settings', undefined);
  // As the page writes it: trailing zeros trimmed.
  reward = settings.referralReward.includes('.') ? settings.referralReward.replace(/\.?0+$/, '') : settings.referralReward;
  limit = settings.referralLimit;
  const player = await verifiedPlayer(server);
  referrerEmail = player.email;
  referrer = await playerContext(await logIn(player.email));
  page = await referrer.newPage();
});

afterAll(async () => {
  await browser?.close();
});

it('shows the referrer the code and the link, copies the link, and says why there is nothing to claim yet', async () => {
  await page.goto(`${server.url}/refer-a-friend`);
  await page.getByRole('heading', { level: 1, name: 'Refer a friend' }).waitFor();
  await page.getByText(`Invite friends with your referral code and earn ${reward}\u00a0LTC for each friend who qualifies, for up to ${limit} friends.`).waitFor();
  expect(await figure(page, 'Friends pending').textContent()).toBe('0');
  expect(await figure(page, 'Friends qualified').textContent()).toBe('0');
  referralCode = (await page.locator('p.code').textContent()) ?? '';
  expect(referralCode).toMatch(/^[A-Za-z0-9]{4,32}$/);
  link = `${server.url}/?dialog=register&ref=${referralCode}`;
  await page.getByText(link, { exact: true }).waitFor();

  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Link copied.').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await page.getByRole('button', { name: 'Copy code' }).click();
  await page.getByText('Code copied.').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(referralCode);
  // Share is offered only where the browser has a share sheet.
  const canShare = await page.evaluate(() => typeof navigator.share === 'function');
  expect(await page.getByRole('button', { name: 'Share link' }).count()).toBe(canShare ? 1 : 0);

  const claim = page.getByRole('button', { name: 'Claim referral bonus' });
  expect(await claim.isDisabled()).toBe(true);
  const reason = 'No friend has signed up with your code yet. Share your link: the reward is yours when a friend joins and qualifies.';
  await page.getByText(reason).waitFor();
  expect(await claim.getAttribute('aria-describedby')).toBe('referral-claim-reason');
  await screenshots(page, 'referral-empty-en');
});

/** Fills the register dialog's fields but the referral code, for the player `details`. */
async function fillRegistration(dialog: Locator, details: ReturnType<typeof newPlayer>) {
  await dialog.getByLabel('First name').fill('Rita');
  await dialog.getByLabel('Last name').fill('Costa');
  await dialog.getByLabel('Email').fill(details.email);
  await dialog.getByLabel('Username').fill(details.username);
  await dialog.getByLabel('Password', { exact: true }).fill('Secret@123');
  await dialog.getByLabel('Confirm password').fill('Secret@123');
  await dialog.getByLabel('Phone code').fill('+351');
  await dialog.getByLabel('Mobile number').fill(details.phone);
  await dialog.getByLabel('Date of birth').fill('1991-03-02');
  await dialog.getByLabel('Gender').selectOption('female');
  await dialog.getByLabel('Street address').fill('Rua Augusta 100');
  await dialog.getByLabel('City').fill('Lisboa');
  await dialog.getByLabel('Country').selectOption('PT');
  await dialog.getByLabel('State').selectOption({ index: 1 });
  await dialog.getByLabel('Zip code').fill('11000');
}

it('lets a friend register from the link with the code kept, and verify the email', async () => {
  const friendContext = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const friend = await friendContext.newPage();
  const details = newPlayer();
  friendEmail = details.email;
  await friend.goto(link);
  const dialog = friend.getByRole('dialog', { name: 'Create an account' });
  const code = dialog.getByLabel('Referral code');
  await code.waitFor();
  expect(await code.inputValue()).toBe(referralCode);
  await fillRegistration(dialog, details);
  // Still the friend's code after everything else was filled in.
  expect(await code.inputValue()).toBe(referralCode);
  await screenshot(friend, 'referral-register-390', { fullPage: true });
  await dialog.getByRole('button', { name: 'Register' }).click();
  await friend.getByText('Registered Successfully !').first().waitFor();

  const mailbox = await api<{ messages: { links: string[] }[] }>(`/dev/mailbox?to=${encodeURIComponent(details.email)}`, undefined);
  const verification = mailbox.messages[0]?.links[0];
  expect(verification).toBeTruthy();
  await friend.goto(verification!);
  await friend.getByText('Email verified').first().waitFor();
  await friendContext.close();
});

it('refuses a registration from a link whose referral code does not exist, with its message', async () => {
  const strangerContext = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const stranger = await strangerContext.newPage();
  await stranger.goto(`${server.url}/?dialog=register&ref=NOSUCHCODE42`);
  const dialog = stranger.getByRole('dialog', { name: 'Create an account' });
  const code = dialog.getByLabel('Referral code');
  await code.waitFor();
  expect(await code.inputValue()).toBe('NOSUCHCODE42');
  await fillRegistration(dialog, newPlayer());
  await dialog.getByRole('button', { name: 'Register' }).click();
  const alert = dialog.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toBe('Referral code not found');
  await strangerContext.close();
});

it('refuses a registration with the referrer\'s own email under a +tag, beside the referral code', async () => {
  const selfContext = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const self = await selfContext.newPage();
  await self.goto(link);
  const dialog = self.getByRole('dialog', { name: 'Create an account' });
  await dialog.getByLabel('Referral code').waitFor();
  const [local, domain] = referrerEmail.split('@');
  await fillRegistration(dialog, newPlayer({ email: `${local!.toUpperCase()}+2@${domain}` }));
  await dialog.getByRole('button', { name: 'Register' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'You cannot use your own referral code' }).waitFor();
  await dialog.getByText('This code belongs to an account with your email address').waitFor();
  await screenshot(self, 'referral-self-refused-390', { fullPage: true });
  await selfContext.close();
});

/** `amount` LTC deposited by the player of `token` through the payment simulator, credited. */
async function deposit(token: string, amount: string) {
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount, currencyCode: 'LTC' }, token);
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });
}

/** A friend who signs up with the code, verifies the email and makes a first deposit (through the API). */
async function qualifiedFriend() {
  const details = newPlayer({ referralCode });
  await api('/user/signup', details);
  const mailbox = await api<{ messages: { links: string[] }[] }>(`/dev/mailbox?to=${encodeURIComponent(details.email)}`, undefined);
  const token = new URL(mailbox.messages[0]!.links[0]!).searchParams.get('token')!;
  await api(`/user/verify-email?token=${encodeURIComponent(token)}`, undefined);
  await deposit(await logIn(details.email), '0.01');
}

it('shows the referrer the verified friend pending until a first deposit, then qualified', async () => {
  await page.goto(`${server.url}/refer-a-friend`);
  await page.getByRole('heading', { level: 1, name: 'Refer a friend' }).waitFor();
  await figure(page, 'Friends pending').filter({ hasText: '1' }).waitFor();
  expect(await figure(page, 'Friends qualified').textContent()).toBe('0');
  expect(await figure(page, 'Ready to claim').textContent()).toBe('0');
  await page
    .getByText('A friend qualifies once they have verified their email and made a first deposit of at least the minimum. Pending friends have signed up but not done both yet.')
    .waitFor();
  expect(await page.getByRole('button', { name: 'Claim referral bonus' }).isDisabled()).toBe(true);
  await page.getByText('Nothing to claim yet: your pending friends count once they qualify.').waitFor();
  await screenshots(page, 'referral-pending-en');

  await deposit(await logIn(friendEmail), '0.01');
});

it('shows the referrer the friend qualified, claims the reward to the toast and /bonus, and the wallet has it', async () => {
  await page.goto(`${server.url}/refer-a-friend`);
  await page.locator('p.amount').filter({ hasText: `${reward}\u00a0LTC` }).waitFor();
  expect(await figure(page, 'Friends pending').textContent()).toBe('0');
  expect(await figure(page, 'Friends qualified').textContent()).toBe('1');
  expect(await figure(page, 'Ready to claim').textContent()).toBe('1');
  expect(await figure(page, 'Already rewarded').textContent()).toBe('0');
  await screenshots(page, 'referral-claimable-en');
  await page.getByRole('button', { name: 'Claim referral bonus' }).click();
  await page.getByText('Referral Bonus Claimed.').first().waitFor();
  await page.waitForURL((url) => url.pathname === '/bonus');
  await screenshot(page, 'referral-claimed-en-1280');

  await page.goto(`${server.url}/?wallet=open&tab=deposit`);
  const wallet = page.getByRole('dialog', { name: 'Wallet' });
  await figure(page, 'Available', wallet).filter({ hasText: `${reward}\u00a0LTC` }).waitFor();
  expect(await figure(page, 'Bonus', wallet).textContent()).toBe('0\u00a0LTC');
  await screenshots(page, 'referral-wallet-en', false);
});

for (const [language, texts] of [
  ['pt', { title: 'Convidar um amigo', claim: 'Resgatar bónus de convite', toast: 'Bónus de convite resgatado.', qualified: 'Amigos qualificados', friends: '2' }],
  ['es', { title: 'Recomienda a un amigo', claim: 'Reclamar bono de referido', toast: 'Bono de referido reclamado.', qualified: 'Amigos calificados', friends: '3' }],
] as const) {
  it(`shows the page and the claim's toast in ${language}`, async () => {
    // One more friend qualifies (through the API: the browser part is above).
    await qualifiedFriend();
    await setLanguage(language);
    await page.goto(`${server.url}/refer-a-friend`);
    await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
    await page.getByRole('button', { name: texts.claim }).waitFor();
    expect(await figure(page, texts.qualified).textContent()).toBe(texts.friends);
    expect(await page.getByRole('button', { name: texts.claim }).isDisabled()).toBe(false);
    await screenshots(page, `referral-claimable-${language}`);
    await page.getByRole('button', { name: texts.claim }).click();
    const toast = page.getByText(texts.toast).first();
    await toast.waitFor();
    await page.waitForURL((url) => url.pathname === '/bonus');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `referral-toast-${language}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // Nothing left to claim: the page says why.
    await page.goto(`${server.url}/refer-a-friend`);
    await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
    expect(await page.getByRole('button', { name: texts.claim }).isDisabled()).toBe(true);
    await screenshots(page, `referral-paid-${language}`);
  });
}

it('shows the bonus balance in the wallet and explains a withdrawal refused while the bonus is being wagered', async () => {
  const player = await verifiedPlayer(server);
  const token = await logIn(player.email);
  // 0.5 LTC deposited through the payment simulator, then the welcome bonus claimed.
  const { address } = await api<{ address: string }>('/payment/coin-payments/deposit', { amount: '0.5', currencyCode: 'LTC' }, token);
  const { txId } = await api<{ txId: string }>('/dev/chain/transfer', { address, amount: '0.5' });
  await api('/dev/chain/confirm', { txId, confirmations: 6 });
  const offers = await api<{ bonus: { rows: { id: number; type: string; currencyId?: number }[] } }>('/bonus?limit=100', undefined, token);
  const joining = offers.bonus.rows.find((offer) => offer.type === 'joining')!;
  await api('/bonus/avail', { bonusId: joining.id, currencyId: 1 }, token);

  const context = await playerContext(token);
  const wagering = await context.newPage();
  await wagering.goto(`${server.url}/?wallet=open&tab=withdraw`);
  const wallet = wagering.getByRole('dialog', { name: 'Wallet' });
  await figure(wagering, 'Bonus', wallet).filter({ hasText: '0.01\u00a0LTC' }).waitFor();
  await figure(wagering, 'Available', wallet).filter({ hasText: '0.5\u00a0LTC' }).waitFor();
  await wallet.getByText('Bonus money is not withdrawable until its wagering is done.').waitFor();
  await wallet.getByLabel('Amount').fill('0.1');
  await wallet.getByLabel('Address').fill(PAYOUT_ADDRESS);
  await wallet.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await wallet.getByRole('button', { name: 'Confirm' }).click();
  await wallet.getByRole('alert').filter({ hasText: 'Cashout not allowed' }).waitFor();
  await wallet.getByText('A bonus is still being wagered, so this money cannot be withdrawn yet.', { exact: false }).waitFor();
  await screenshots(wagering, 'withdraw-cashout-not-allowed', false);
  await wallet.getByRole('link', { name: 'See your active bonus' }).click();
  await wagering.waitForURL((url) => url.pathname === '/bonus' && url.searchParams.get('tab') === 'active');
  expect(await wagering.getByRole('dialog', { name: 'Wallet' }).count()).toBe(0);
  await context.close();
});

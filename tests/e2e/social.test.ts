import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFacebookGraph, startGoogleIssuer, type FacebookGraph, type GoogleIssuer } from '../fixtures/identity-servers.ts';
import { connectBrowser, cspViolations, startOwnServer, type ProductServer } from './harness.ts';

/*
 * Google and Facebook sign-in in the browser. The providers are the boundary: the server verifies tokens
 * against local issuers with real keys (tests/fixtures/identity-servers.ts), and the browser's requests for
 * the providers' SDKs are answered with stand-ins that behave as the real SDKs do for the calls the app
 * makes (Google's renderButton and its credential callback; Facebook's init and login popup).
 */

let server: ProductServer;
let browser: Browser;
let google: GoogleIssuer;
let facebook: FacebookGraph;
const FACEBOOK_APP = { appId: '987654321012345', appSecret: 'e2e-app-secret' };
const tag = Date.now().toString().slice(-7);

beforeAll(async () => {
  [google, facebook, browser] = await Promise.all([startGoogleIssuer(), startFacebookGraph(FACEBOOK_APP), connectBrowser()]);
  server = await startOwnServer({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_JWKS_URL: google.jwksUrl,
    FACEBOOK_APP_ID: FACEBOOK_APP.appId,
    FACEBOOK_APP_SECRET: FACEBOOK_APP.appSecret,
    FACEBOOK_GRAPH_URL: facebook.graphUrl,
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await google?.close();
  await facebook?.close();
});

/** A page whose Google and Facebook SDK requests get the stand-ins; `sdkRequests` lists what was asked for. */
async function newPage(grants: { googleToken: () => Promise<string>; facebookToken: () => string }) {
  const context: BrowserContext = await browser.newContext();
  // The server's policy names the SDKs' origins when the logins are configured: they load with no violation.
  const violations = cspViolations(context);
  const sdkRequests: string[] = [];
  await context.route('https://accounts.google.com/gsi/client', async (route) => {
    sdkRequests.push(route.request().url());
    const credential = await grants.googleToken();
    await route.fulfill({
      contentType: 'text/javascript',
      body: `window.google = { accounts: { id: {
        initialize(config) { window.__googleConfig = config; },
        renderButton(element, options) {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = 'Sign in with Google';
          button.dataset.locale = options.locale;
          button.onclick = () => window.__googleConfig.callback({ credential: ${JSON.stringify(credential)}, select_by: 'btn' });
          element.appendChild(button);
        },
      } } };`,
    });
  });
  await context.route(/^https:\/\/connect\.facebook\.net\/[a-z]{2}_[A-Z]{2}\/sdk\.js$/, async (route) => {
    sdkRequests.push(route.request().url());
    const accessToken = grants.facebookToken();
    await route.fulfill({
      contentType: 'text/javascript',
      body: `window.FB = {
        init(config) { window.__facebookConfig = config; },
        login(callback) {
          setTimeout(() => callback({ status: 'connected', authResponse: { accessToken: ${JSON.stringify(accessToken)}, userID: '7${tag}' } }), 50);
        },
      };`,
    });
  });
  const page: Page = await context.newPage();
  return {
    page,
    sdkRequests,
    close: async () => {
      await context.close();
      expect(violations).toEqual([]);
    },
  };
}

it('signs in with Google from the login dialog, and stores the login time', async () => {
  const { page, sdkRequests, close } = await newPage({
    googleToken: () => google.signIdToken({ sub: `g-${tag}`, email: `google${tag}@example.com`, given_name: 'Grace', family_name: 'Hopper' }),
    facebookToken: () => facebook.issueToken({ userId: `7${tag}`, email: `facebook${tag}@example.com`, firstName: 'Ada', lastName: 'Byron' }),
  });
  await page.goto(`${server.url}/?dialog=login`);
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.getByText('Login successful!').first().waitFor();
  await page.getByRole('button', { name: 'Account' }).waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(new URL(page.url()).search).toBe('');
  const stored = await page.evaluate(() => ({
    lastLoginAt: window.localStorage.getItem('casino.lastLoginAt'),
    clientId: (window as unknown as { __googleConfig?: { client_id: string } }).__googleConfig?.client_id,
  }));
  expect(stored.clientId).toBe(google.clientId);
  expect(Number.isNaN(Date.parse(stored.lastLoginAt ?? ''))).toBe(false);
  expect(sdkRequests).toEqual(['https://accounts.google.com/gsi/client']);

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByText('Logged out successfully!').first().waitFor();
  await close();
});

it('signs up with Facebook from the register dialog, in the chosen language', async () => {
  const { page, sdkRequests, close } = await newPage({
    googleToken: () => google.signIdToken({ sub: `g2-${tag}` }),
    facebookToken: () => facebook.issueToken({ userId: `7${tag}`, email: `facebook${tag}@example.com`, firstName: 'Ada', lastName: 'Byron' }),
  });
  await page.goto(server.url);
  await page.evaluate(() => window.localStorage.setItem('casino.language', 'es'));
  await page.goto(`${server.url}/?dialog=register`);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Continuar con Facebook' }).click();
  await page.getByRole('button', { name: 'Cuenta' }).waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(sdkRequests).toContain('https://connect.facebook.net/es_ES/sdk.js');
  const facebookConfig = await page.evaluate(() => (window as unknown as { __facebookConfig?: { appId: string } }).__facebookConfig);
  expect(facebookConfig?.appId).toBe(FACEBOOK_APP.appId);
  expect(await page.evaluate(() => window.localStorage.getItem('casino.lastLoginAt'))).not.toBeNull();
  await close();
});

it('shows the server’s refusal of a forged Google token, and stays open', async () => {
  const { page, close } = await newPage({
    googleToken: () => google.signIdToken({ sub: `g3-${tag}` }, { key: 'other' }),
    facebookToken: () => 'unused',
  });
  await page.goto(`${server.url}/?dialog=login`);
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByRole('button', { name: 'Sign in with Google' }).click();
  await dialog.getByRole('alert').waitFor();
  expect(await dialog.getByRole('alert').textContent()).toBe('Social sign-in failed. Please try again.');
  expect(await page.getByRole('button', { name: 'Account' }).count()).toBe(0);
  await close();
});

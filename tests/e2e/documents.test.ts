import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { esScreens } from '../../src/i18n/es.screens.ts';
import { esShell } from '../../src/i18n/es.shell.ts';
import { ptScreens } from '../../src/i18n/pt.screens.ts';
import { ptShell } from '../../src/i18n/pt.shell.ts';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer } from '../helpers/players.ts';
import { startGoogleIssuer, type GoogleIssuer } from '../fixtures/identity-servers.ts';
import { connectBrowser, screenshot, startOwnServer, verifiedPlayer, type ProductServer } from './harness.ts';

/*
 * Identity documents, the password change and a new verification email, in Chromium against the real
 * server. A Google player (basic information incomplete, as social accounts start) is told to complete
 * it first; completed through the API, the player uploads a document and sees it under review without a
 * reload; approved through the simulator, it shows Approved (the review's notification comes over the
 * live updates and the list is read again); a file too large or of a
 * type not allowed is refused before anything is sent. A player changes the password and logs in with
 * the new one; an unverified player asks for a new verification email from the login dialog and the
 * simulator's mailbox has it. The section and its toast in English, Portuguese and Spanish, 390 and
 * 1280 px. The server is this file's own: Google sign-in is configured on it (a local issuer).
 */

let server: ProductServer;
let google: GoogleIssuer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let googleToken: string;
const tag = Date.now().toString().slice(-7);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
// A real 1×1 transparent PNG (the server decodes and encodes every image anew: a broken one is refused).
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000b4944415478da636000020000050001e9fadcd80000000049454e44ae426082', 'hex');

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

async function screenshots(target: Page, name: string, fullPage = true) {
  for (const width of [390, 1280]) {
    await target.setViewportSize({ width, height: 900 });
    await screenshot(target, `${name}-${width}`, { fullPage });
  }
}

/** The session of `token` in this browser (as a login leaves it), on the profile page. */
async function openProfileAs(token: string) {
  await page.goto(`${server.url}/`);
  await page.evaluate((saved) => window.localStorage.setItem('casino.token', saved), token);
  await page.goto(`${server.url}/profile`);
}

async function openSection(title: string) {
  // The accordion's toggle: its name is the title and the + or − the page draws after it.
  const toggle = page.locator('section h2 > button').filter({ hasText: title });
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

async function logIn(email: string, password: string) {
  await page.getByRole('button', { name: 'Log in' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByLabel('Email or username').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
}

beforeAll(async () => {
  [google, browser] = await Promise.all([startGoogleIssuer(), connectBrowser()]);
  server = await startOwnServer({
    RATE_LIMIT: 'off',
    PASSWORD_HASH_MEMORY_KIB: '8',
    PASSWORD_HASH_ITERATIONS: '1',
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_JWKS_URL: google.jwksUrl,
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  const credential = await google.signIdToken({ sub: `g-docs-${tag}`, email: `docs${tag}@example.com`, given_name: 'Grace', family_name: 'Hopper' });
  googleToken = (await api<{ accessToken: string }>('/user/google-login', { credential })).accessToken;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await google?.close();
});

it('tells a player whose basic information is incomplete to complete it first, and offers no upload', async () => {
  await openProfileAs(googleToken);
  await openSection('Identity verification');
  await page.getByText('Complete your basic information before uploading documents.').waitFor();
  expect(await page.locator('input[type="file"]').count()).toBe(0);
  await screenshots(page, 'documents-incomplete-en');
  // Its button opens the basic information section.
  await page.getByRole('button', { name: 'Complete basic information' }).click();
  expect(await page.locator('section h2 > button').filter({ hasText: 'Basic information' }).getAttribute('aria-expanded')).toBe('true');
});

it('uploads a document and shows it under review without a reload; approved by the simulator, Approved without one either', async () => {
  const fields = newPlayer();
  await api(
    '/user/update',
    {
      firstName: 'Grace', lastName: 'Hopper', username: `grace${tag}`, phoneCode: fields.phoneCode, phone: fields.phone, dateOfBirth: '1990-05-17',
      gender: 'female', address: 'Rua Augusta 100', city: 'Lisboa', stateCode: '11', countryCode: 'PT', zipCode: '11000',
    },
    googleToken,
  );
  await page.reload();
  await openSection('Identity verification');
  const front = page.getByLabel('Upload Proof of identity (front)');
  await front.waitFor();
  await screenshots(page, 'documents-ready-en');

  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/document/upload')) uploads.push(request.url());
  });
  // Refused before sending: too large, then a type not allowed; the message is beside the input.
  await front.setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]) });
  await page.getByText('The file must be under 5 MB').waitFor();
  expect(await front.getAttribute('aria-invalid')).toBe('true');
  await screenshots(page, 'documents-too-large-en');
  await front.setInputFiles({ name: 'passport.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') });
  await page.getByText('This file type is not allowed').waitFor();
  expect(uploads).toEqual([]);

  await front.setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByText('Your documents were submitted for review.').first().waitFor();
  const frontItem = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Proof of identity \(front\)/ }) });
  await frontItem.getByText('Status: Under Review').waitFor();
  expect(await page.getByLabel('Upload Proof of identity (front)').count()).toBe(0);
  expect(uploads.length).toBe(1);
  await screenshots(page, 'documents-under-review-en');

  const { documents } = await api<{ documents: { id: number; status: string }[] }>('/document/get-documents', undefined, googleToken);
  await api('/dev/documents/review', { documentId: documents[0]!.id, status: 'Approved' });
  // The review's notification comes over the live updates: the list is read again, no reload.
  await frontItem.getByText('Status: Approved').waitFor();
  await screenshots(page, 'documents-approved-en');
});

for (const [language, texts] of [
  ['pt', { title: ptScreens.profile.identity.title, label: 'Proof of identity (back)', upload: ptScreens.profile.identity.uploadFor, toast: ptShell.messages.documentSubmissionSuccess, status: `${ptScreens.profile.identity.status}: ${ptScreens.profile.identity.statuses.underReview}` }],
  ['es', { title: esScreens.profile.identity.title, label: 'Proof of address', upload: esScreens.profile.identity.uploadFor, toast: esShell.messages.documentSubmissionSuccess, status: `${esScreens.profile.identity.status}: ${esScreens.profile.identity.statuses.underReview}` }],
] as const) {
  it(`shows the section and its toast in ${language}`, async () => {
    await page.setViewportSize({ width: language === 'pt' ? 390 : 1280, height: 900 });
    await page.evaluate((lang) => window.localStorage.setItem('casino.language', lang), language);
    await page.reload();
    await openSection(texts.title);
    const input = page.getByLabel(texts.upload.replace('{{label}}', texts.label));
    await input.waitFor();
    await screenshots(page, `documents-section-${language}`);
    await input.setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText(texts.toast).first().waitFor();
    await page.getByText(texts.status).first().waitFor();
    await screenshot(page, `documents-toast-${language}-${page.viewportSize()?.width ?? 0}`);
  });
}

it('changes the password with the rules beside the field, then logs in with the new one', async () => {
  const player = await verifiedPlayer(server);
  const { accessToken } = await api<{ accessToken: string }>('/user/login', { email: player.email, password: encodePassword(player.password) });
  await page.evaluate(() => window.localStorage.setItem('casino.language', 'en'));
  await openProfileAs(accessToken);
  await openSection('Change password');
  await page.getByLabel('Current password', { exact: true }).fill('Wrong@1234');
  await page.getByLabel('New password', { exact: true }).fill('weak');
  await page.getByRole('list', { name: 'Your password must have:' }).waitFor();
  await page.getByLabel('Confirm new password', { exact: true }).fill('weak');
  await page.getByRole('button', { name: 'Update password' }).click();
  expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  await screenshots(page, 'password-rules-en');

  await page.getByLabel('New password', { exact: true }).fill('NewSecret@456');
  await page.getByLabel('Confirm new password', { exact: true }).fill('NewSecret@456');
  await page.getByRole('button', { name: 'Update password' }).click();
  await page.getByRole('alert').filter({ hasText: 'Wrong Password!' }).waitFor();
  await page.getByLabel('Current password', { exact: true }).fill(player.password);
  await page.getByRole('button', { name: 'Update password' }).click();
  await page.getByText('Password Updated Sucessfully').first().waitFor();
  await screenshots(page, 'password-changed-en');

  await page.evaluate(() => window.localStorage.removeItem('casino.token'));
  await page.goto(`${server.url}/`);
  await logIn(player.email, 'NewSecret@456');
  await page.getByText('Login successful!').first().waitFor();
  await page.getByRole('button', { name: 'Account' }).waitFor();
});

it('sends an unverified player a new verification email from the login dialog, once', async () => {
  const fields = newPlayer();
  await api('/user/signup', fields);
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(`${server.url}/`);
  await page.setViewportSize({ width: 390, height: 900 });
  await logIn(fields.email, 'Secret@123');
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByText('Email not verified').waitFor();
  expect(await dialog.getByLabel('Email for the verification link').inputValue()).toBe(fields.email);
  await screenshots(page, 'resend-verification-en', false);
  await dialog.getByRole('button', { name: 'Send a new verification email' }).click();
  await dialog.getByText('A new verification email is on its way. Open the link in it, then log in.').waitFor();
  expect(await dialog.getByRole('button', { name: 'Send a new verification email' }).count()).toBe(0);
  await screenshots(page, 'resend-verification-sent-en', false);
  const mailbox = await api<{ messages: { subject: string; links: string[] }[] }>(`/dev/mailbox?to=${encodeURIComponent(fields.email)}`, undefined);
  expect(mailbox.messages.length).toBe(2);
  expect(mailbox.messages.every((message) => message.links.some((link) => link.includes('verify-email?token=')))).toBe(true);
});

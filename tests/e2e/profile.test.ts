import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodePassword } from '../../src/rules/password.ts';
import { connectBrowser, screenshot, sharedServer, verifiedPlayer, type SharedServer } from './harness.ts';

/*
 * The profile page in Chromium against the real server: the basic information edited (the toast, the
 * section closed, the change still there after a reload); an address added, refused as a duplicate
 * (ADDRESS_ALREADY_EXISTS), edited and removed after saying yes; a 21st address refused with its reason; a real PNG previewed, uploaded, shown
 * from the server and removed, while a 6 MB file and a GIF are refused before anything is sent. The page
 * and the save's toast in English, Portuguese and Spanish, at 390 and 1280 px.
 */

let server: SharedServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let username = '';

async function logIn(email: string): Promise<string> {
  const response = await fetch(`${server.apiUrl}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: encodePassword('Secret@123') }),
  });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
}

async function screenshots(name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`, { fullPage: width === 390 });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A real PNG: `size` × `size` pixels of a gradient, built with zlib (no image library). */
function png(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < size; y += 1) {
    rows.push(0);
    for (let x = 0; x < size; x += 1) rows.push(40 + Math.round((200 * x) / size), 90, 40 + Math.round((200 * y) / size));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Fills the open address form with `street` in Lisboa, Portugal, and saves it. */
async function saveAddress(on: Page, street: string) {
  await on.getByLabel('Street address', { exact: true }).fill(street);
  await on.getByLabel('City', { exact: true }).fill('Lisboa');
  await on.getByLabel('Zip code', { exact: true }).fill('11000');
  await on.getByLabel('Country', { exact: true }).locator('option', { hasText: 'Portugal' }).waitFor({ state: 'attached' });
  await on.getByLabel('Country', { exact: true }).selectOption('PT');
  await on.getByLabel('State', { exact: true }).selectOption('11');
  await on.getByRole('button', { name: 'Save address' }).click();
}

const section = (name: string) => page.getByRole('button', { name, exact: true });

async function openSection(name: string) {
  const toggle = section(name);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.locator(`[id="${(await toggle.getAttribute('aria-controls'))!}"]`).waitFor();
}

beforeAll(async () => {
  server = sharedServer();
  browser = await connectBrowser();
  const player = await verifiedPlayer(server);
  username = player.username;
  const token = await logIn(player.email);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((saved) => {
    window.localStorage.setItem('casino.token', saved);
    if (!window.localStorage.getItem('casino.language')) window.localStorage.setItem('casino.language', 'en');
  }, token);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

it('edits the basic information: the toast, the section closed, and the change there after a reload', async () => {
  await page.goto(`${server.url}/profile`);
  await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  expect(await section('Basic information').getAttribute('aria-expanded')).toBe('true');
  expect(await page.getByLabel('Email', { exact: true }).inputValue()).toContain('@example.com');
  expect(await page.getByLabel('Username', { exact: true }).inputValue()).toBe(username);
  // The countries arrive: Portugal and Lisboa are chosen.
  await page.getByLabel('Country', { exact: true }).locator('option', { hasText: 'Portugal' }).waitFor({ state: 'attached' });
  expect(await page.getByLabel('Country', { exact: true }).inputValue()).toBe('PT');
  await screenshots('profile-basic-en');

  // A rule beside its field, before anything is sent.
  await page.getByLabel('Zip code', { exact: true }).fill('1234');
  await page.getByText('Enter 5 or 9 digits').waitFor();
  expect(await page.getByLabel('Zip code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  await page.getByLabel('Zip code', { exact: true }).fill('40000');
  await page.getByLabel('Last name', { exact: true }).fill('Silva Costa');
  await page.getByLabel('State', { exact: true }).selectOption('13');
  await page.getByLabel('City', { exact: true }).fill('Porto');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Profile Updated Successfully!').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-section="basic-information"] button')?.getAttribute('aria-expanded') === 'false');
  await screenshots('profile-saved-en');

  await page.reload();
  await page.getByLabel('City', { exact: true }).waitFor();
  expect(await page.getByLabel('City', { exact: true }).inputValue()).toBe('Porto');
  expect(await page.getByLabel('Last name', { exact: true }).inputValue()).toBe('Silva Costa');
  expect(await page.getByLabel('Zip code', { exact: true }).inputValue()).toBe('40000');
  await page.getByLabel('State', { exact: true }).locator('option', { hasText: 'Porto' }).waitFor({ state: 'attached' });
  expect(await page.getByLabel('State', { exact: true }).inputValue()).toBe('13');
});

it('adds an address, refuses the same one again, edits it and removes it after asking', async () => {
  await openSection('Addresses');
  await page.getByText('No addresses saved yet.').waitFor();
  const add = async () => {
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Label (Optional)').fill('Home');
    await saveAddress(page, 'Rua Augusta 100');
  };
  await add();
  await page.getByText('Rua Augusta 100, Lisboa, 11 11000, PT').waitFor();
  await screenshots('profile-addresses-en');

  await add();
  await page.getByRole('alert').filter({ hasText: 'Address already exists' }).waitFor();
  await screenshots('profile-address-exists-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.locator('[data-section="addresses"]').getByRole('listitem').count()).toBe(1);

  await page.getByRole('button', { name: 'Edit Home' }).click();
  expect(await page.getByLabel('Street address', { exact: true }).inputValue()).toBe('Rua Augusta 100');
  await page.getByLabel('Street address', { exact: true }).fill('Rua Augusta 200');
  await page.getByRole('button', { name: 'Save address' }).click();
  await page.getByText('Rua Augusta 200, Lisboa, 11 11000, PT').waitFor();

  await page.getByRole('button', { name: 'Remove Home' }).click();
  await page.getByRole('group', { name: 'Remove this address?' }).waitFor();
  await screenshots('profile-address-remove-en');
  await page.getByRole('button', { name: 'Yes, remove' }).click();
  await page.getByText('No addresses saved yet.').waitFor();

  // After a reload the server has none either.
  await page.reload();
  await openSection('Addresses');
  await page.getByText('No addresses saved yet.').waitFor();
});

it('says a player keeps at most 20 addresses when a 21st is saved', async () => {
  // Another player with 20 addresses already saved, through the API.
  const other = await verifiedPlayer(server);
  const token = await logIn(other.email);
  for (let n = 1; n <= 20; n += 1) {
    const response = await fetch(`${server.apiUrl}/user/add-address`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ label: null, address: `Rua Augusta ${n}`, city: 'Lisboa', stateCode: '11', zipCode: '11000', countryCode: 'PT' }),
    });
    if (response.status !== 200) throw new Error(`add-address: ${response.status} ${await response.text()}`);
  }
  const full = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await full.addInitScript((saved) => window.localStorage.setItem('casino.token', saved), token);
  const tab = await full.newPage();
  await tab.goto(`${server.url}/profile`);
  const toggle = tab.getByRole('button', { name: 'Addresses', exact: true });
  await toggle.click();
  await tab.getByText('Rua Augusta 20, Lisboa, 11 11000, PT').waitFor();
  await tab.getByRole('button', { name: 'Add address' }).click();
  await saveAddress(tab, 'Rua Augusta 21');
  await tab.getByRole('alert').filter({ hasText: 'You have reached the maximum number of addresses' }).waitFor();
  await tab.getByRole('button', { name: 'Cancel' }).click();
  expect(await tab.locator('[data-section="addresses"]').getByRole('listitem').count()).toBe(20);
  await full.close();
});

it('previews, uploads, shows and removes a picture; refuses a 6 MB file and a GIF before sending', async () => {
  await openSection('Profile picture');
  await page.getByText('No picture yet.').waitFor();
  const uploads: string[] = [];
  const record = (request: { url(): string }) => {
    if (request.url().includes('/user/upload-profile-image')) uploads.push(request.url());
  };
  page.on('request', record);
  const picker = page.getByLabel('Choose a picture');

  await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024, 1) });
  await page.getByText('The file must be under 5 MB').waitFor();
  expect(await picker.getAttribute('aria-invalid')).toBe('true');
  await picker.setInputFiles({ name: 'animation.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1') });
  await page.getByText('This file type is not allowed').waitFor();
  await screenshots('profile-picture-refused-en');
  expect(await page.getByRole('button', { name: 'Upload picture' }).count()).toBe(0);
  expect(uploads).toEqual([]);

  await picker.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(96) });
  const preview = page.getByRole('img', { name: 'Preview of the picture you chose' });
  await preview.waitFor();
  expect(await preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(96);
  await screenshots('profile-picture-preview-en');
  await page.getByRole('button', { name: 'Upload picture' }).click();
  const picture = page.getByRole('img', { name: `Profile picture of ${username}` });
  await picture.waitFor();
  expect(uploads).toHaveLength(1);
  expect(await picture.getAttribute('src')).toMatch(/^\/api\/v1\/user\/profile-image\//);
  await page.waitForFunction((name) => {
    const image = document.querySelector<HTMLImageElement>(`img[alt="Profile picture of ${name}"]`);
    return image !== null && image.complete && image.naturalWidth === 96;
  }, username);
  await screenshots('profile-picture-en');

  await page.getByRole('button', { name: 'Remove picture' }).click();
  await page.getByText('No picture yet.').waitFor();
  expect(await picture.count()).toBe(0);
  page.off('request', record);
});

for (const [language, text] of [
  ['pt', { title: 'Perfil', section: 'Informações básicas', city: 'Cidade', save: 'Guardar alterações', toast: 'Perfil atualizado com sucesso!', addresses: 'Endereços' }],
  ['es', { title: 'Perfil', section: 'Información básica', city: 'Ciudad', save: 'Guardar cambios', toast: '¡Perfil actualizado correctamente!', addresses: 'Direcciones' }],
  ['en', { title: 'Profile', section: 'Basic information', city: 'City', save: 'Save changes', toast: 'Profile Updated Successfully!', addresses: 'Addresses' }],
] as const) {
  it(`shows the page and the save's toast in ${language}`, async () => {
    await page.evaluate((lang) => window.localStorage.setItem('casino.language', lang), language);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { level: 1, name: text.title }).waitFor();
    await section(text.addresses).waitFor();
    await page.getByLabel(text.city, { exact: true }).waitFor();
    await screenshots(`profile-${language}`);
    await page.getByLabel(text.city, { exact: true }).fill(language === 'en' ? 'Lisboa' : 'Porto');
    await page.getByRole('button', { name: text.save }).click();
    await page.getByText(text.toast).waitFor();
    expect(await section(text.section).getAttribute('aria-expanded')).toBe('false');
    await screenshots(`profile-toast-${language}`);
  });
}

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, sharedServer, type SharedServer } from './harness.ts';

/*
 * Each language's dictionary comes in two chunks (src/i18n/index.ts): the first load of the lobby brings
 * the stored language's shell only, its screens part comes with the first dialog or screen, another
 * language arrives whole when the player picks it, and the interface switches without a reload.
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

const DICTIONARY = /\/assets\/((?:en|pt|es)\.(?:shell|screens))-[\w-]+\.js$/;

/** The dictionary parts the page requests from now on ('en.shell', 'pt.screens'). */
function dictionaryRequests(page: Page): string[] {
  const languages: string[] = [];
  page.on('request', (request) => {
    const match = DICTIONARY.exec(new URL(request.url()).pathname);
    if (match?.[1]) languages.push(match[1]);
  });
  return languages;
}

it('loads one dictionary at first, the chosen one when the player switches, and switches without a reload', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const requested = dictionaryRequests(page);
  await page.goto(server.url, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Live casino' }).first().waitFor();
  expect(requested).toEqual(['en.shell']);

  // A dialog brings the rest of the language's messages.
  await page.goto(`${server.url}/?dialog=login`, { waitUntil: 'networkidle' });
  await page.getByRole('dialog', { name: 'Log in' }).getByLabel('Email or username').waitFor();
  expect(requested.sort()).toEqual(['en.screens', 'en.shell', 'en.shell']);
  await page.keyboard.press('Escape');
  requested.length = 0;

  // A marker that a reload would wipe.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await page.getByRole('link', { name: 'Casino en vivo' }).first().waitFor();
  expect(requested.sort()).toEqual(['es.screens', 'es.shell']);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

  // Back to English: already loaded, nothing is fetched again.
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await page.getByRole('link', { name: 'Live casino' }).first().waitFor();
  expect(requested.sort()).toEqual(['es.screens', 'es.shell']);

  // The stored choice is the only dictionary of the next first load.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('pt');
  await page.getByRole('link', { name: 'Casino ao vivo' }).first().waitFor();
  requested.length = 0;
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Casino ao vivo' }).first().waitFor();
  expect(requested).toEqual(['pt.shell']);
  await page.close();
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connectBrowser, sharedServer, type SharedServer } from './harness.ts';

/*
 * How the built app is delivered (server/http/static.ts, vite.config.ts): hashed assets precompressed and
 * cached for good, index.html revalidated, a real robots.txt, a description for search engines.
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

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function entryScript(): Promise<string> {
  const html = await (await fetch(server.url)).text();
  const match = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html);
  if (!match?.[1]) throw new Error(`no entry script in ${html}`);
  return match[1];
}

it('sends a browser every script brotli-compressed and cacheable for good, and index.html revalidated', async () => {
  const page = await browser.newPage();
  const assets: { path: string; encoding: string; cache: string; vary: string }[] = [];
  const documents: { path: string; cache: string }[] = [];
  page.on('response', (response) => {
    const headers = response.headers();
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/assets/')) {
      assets.push({ path, encoding: headers['content-encoding'] ?? '', cache: headers['cache-control'] ?? '', vary: headers.vary ?? '' });
    } else if (response.request().resourceType() === 'document') {
      documents.push({ path, cache: headers['cache-control'] ?? '' });
    }
  });
  await page.goto(server.url, { waitUntil: 'networkidle' });
  await page.goto(`${server.url}/casino?dialog=login`, { waitUntil: 'networkidle' });
  expect(assets.length).toBeGreaterThan(3);
  for (const asset of assets) {
    expect(asset.cache, asset.path).toBe(IMMUTABLE);
    expect(asset.vary.toLowerCase(), asset.path).toContain('accept-encoding');
    if (asset.path.endsWith('.js')) expect(asset.encoding, asset.path).toBe('br');
  }
  expect(documents).toEqual([
    { path: '/', cache: 'no-cache' },
    { path: '/casino', cache: 'no-cache' },
  ]);
  await page.close();
});

it('answers the encoding a client accepts: gzip, else the file as it is', async () => {
  const script = await entryScript();
  const gzip = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers.get('content-encoding')).toBe('gzip');
  expect(gzip.headers.get('cache-control')).toBe(IMMUTABLE);
  const gzipText = await gzip.text();
  const identity = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
  expect(identity.headers.get('content-encoding')).toBeNull();
  expect(identity.headers.get('content-type')).toContain('javascript');
  // fetch decodes gzip: both are the same script.
  expect(await identity.text()).toBe(gzipText);
  const missing = await fetch(`${server.url}/assets/no-such-file.js`, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(missing.headers.get('cache-control')).toBe('no-cache');
  expect(missing.headers.get('content-type')).toContain('text/html');
});

it('serves robots.txt as text, keeping crawlers out of the API and the flow charts', async () => {
  const response = await fetch(`${server.url}/robots.txt`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const rules = await response.text();
  expect(rules).toContain('User-agent: *');
  expect(rules).toContain('Disallow: /api/');
  expect(rules).toContain('Disallow: /flows');
  expect(rules).not.toContain('<html');
});

it('describes the site to search engines', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(description?.length ?? 0).toBeGreaterThan(50);
  await page.close();
});
